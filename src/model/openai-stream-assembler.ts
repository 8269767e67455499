import type { JsonValue } from "../core/json-value.ts";
import type { ModelStreamPart, ToolCall } from "./model-client.ts";
import { argumentsText, extraFields, generatedCallId, reasoningField, type ReplyContent, type UsageBody } from "./openai-reply.ts";

interface CallSlot {
  readonly serverIndex: number | undefined;
  id: string;
  name: string;
  arguments: string;
  extra: Record<string, JsonValue> | undefined;
}

/**
 * Joins the chunks of a streamed chat completion into one reply and turns each
 * chunk into stream parts. Tool calls are assembled by the index the server gives
 * each delta; a delta with a new id at an index already in use starts a new call
 * (servers that number every call 0), and a delta without an index continues the
 * last call. Each call's provider extras (Gemini's `extra_content`) are merged from
 * whichever deltas carry them.
 */
export class StreamAssembler {
  #text = "";
  #reasoning = "";
  #rawFinishReason: string | null | undefined;
  #usage: UsageBody | null | undefined;
  #model: string | undefined;
  readonly #calls: CallSlot[] = [];

  /** Characters of text and of reasoning received so far. */
  get received(): { readonly characters: number; readonly reasoningCharacters: number } {
    return { characters: this.#text.length, reasoningCharacters: this.#reasoning.length };
  }

  /** Takes one chunk; returns the parts it holds, in order. */
  push(chunk: unknown): ModelStreamPart[] {
    const { model, usage, choices } = (chunk ?? {}) as { model?: unknown; usage?: UsageBody | null; choices?: unknown };
    if (typeof model === "string" && !this.#model) this.#model = model;
    if (usage) this.#usage = usage;
    const choice = Array.isArray(choices) ? (choices[0] as { delta?: Record<string, unknown>; finish_reason?: string | null } | undefined) : undefined;
    if (!choice) return [];
    const parts: ModelStreamPart[] = [];
    const delta = choice.delta ?? {};
    const reasoning = reasoningField(delta);
    if (reasoning) {
      this.#reasoning += reasoning;
      parts.push({ type: "reasoning-delta", text: reasoning });
    }
    if (typeof delta.content === "string" && delta.content.length > 0) {
      this.#text += delta.content;
      parts.push({ type: "text-delta", text: delta.content });
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const callDelta of delta.tool_calls) {
        const part = this.#pushCallDelta(callDelta);
        if (part) parts.push(part);
      }
    }
    if (choice.finish_reason) this.#rawFinishReason = choice.finish_reason;
    return parts;
  }

  /** The reply so far, tool calls in order (an id generated for a call the server sent none for). */
  reply(): ReplyContent {
    const toolCalls: ToolCall[] = this.#calls.map((slot) => ({
      id: slot.id || generatedCallId(),
      name: slot.name,
      arguments: slot.arguments,
      ...(slot.extra ? { extra: slot.extra } : {}),
    }));
    return {
      text: this.#text,
      ...(this.#reasoning ? { reasoning: this.#reasoning } : {}),
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
      rawFinishReason: this.#rawFinishReason,
      usage: this.#usage,
      model: this.#model,
    };
  }

  #pushCallDelta(callDelta: unknown): ModelStreamPart | undefined {
    const { index, id: rawId, function: fn } = (callDelta ?? {}) as { index?: unknown; id?: unknown; function?: { name?: unknown; arguments?: unknown } };
    const serverIndex = typeof index === "number" ? index : undefined;
    const id = typeof rawId === "string" && rawId !== "" ? rawId : undefined;
    let slot = serverIndex === undefined ? this.#calls.at(-1) : this.#calls.findLast((call) => call.serverIndex === serverIndex);
    if (slot && id !== undefined && slot.id !== "" && slot.id !== id) slot = undefined;
    const isNew = slot === undefined;
    if (!slot) {
      slot = { serverIndex, id: "", name: "", arguments: "", extra: undefined };
      this.#calls.push(slot);
    }
    const learnedId = id !== undefined && slot.id === "" ? id : undefined;
    if (learnedId) slot.id = learnedId;
    const name = typeof fn?.name === "string" && fn.name !== "" ? fn.name : undefined;
    const learnedName = name !== undefined && slot.name === "" ? name : undefined;
    if (learnedName) slot.name = learnedName;
    const argumentsDelta = argumentsText(fn?.arguments);
    slot.arguments += argumentsDelta;
    const extra = extraFields(callDelta);
    if (extra) slot.extra = { ...slot.extra, ...extra };
    if (!isNew && !learnedId && !learnedName && argumentsDelta === "") return undefined;
    return {
      type: "tool-call-delta",
      index: this.#calls.indexOf(slot),
      ...(learnedId ? { id: learnedId } : {}),
      ...(learnedName ? { name: learnedName } : {}),
      argumentsDelta,
    };
  }
}
