import { randomUUID } from "node:crypto";
import type { JsonValue } from "../core/json-value.ts";
import { estimateUsage } from "./estimate-tokens.ts";
import { mapFinishReason } from "./finish-reason.ts";
import type { ModelRequest, ModelResponse, TokenUsage, ToolCall } from "./model-client.ts";

/** Usage as servers report it. */
export type UsageBody = { prompt_tokens?: number; completion_tokens?: number };

/** What one reply held, before it becomes a {@link ModelResponse}. */
export interface ReplyContent {
  readonly text: string;
  readonly reasoning?: string;
  readonly toolCalls?: readonly ToolCall[];
  readonly rawFinishReason: string | null | undefined;
  readonly usage: UsageBody | null | undefined;
  readonly model: string | undefined;
}

/**
 * The response for a reply: the server's usage, or an estimate from the text,
 * reasoning and tool calls when it sent none; the finish reason mapped, the raw one kept.
 */
export function toModelResponse(request: ModelRequest, reply: ReplyContent, modelId: string): ModelResponse {
  const { text, reasoning, toolCalls, rawFinishReason, usage, model } = reply;
  const reported: TokenUsage | undefined =
    usage && typeof usage.prompt_tokens === "number" && typeof usage.completion_tokens === "number"
      ? { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens }
      : undefined;
  const callsText = (toolCalls ?? []).map((call) => `${call.name}${call.arguments}`).join("");
  return {
    text,
    ...(reasoning ? { reasoning } : {}),
    ...(toolCalls && toolCalls.length > 0 ? { toolCalls } : {}),
    // Reasoning tokens count as completion tokens when the server reports none.
    usage: reported ?? estimateUsage(request.messages, `${reasoning ?? ""}${text}${callsText}`),
    ...(reported ? {} : { usageEstimated: true }),
    finishReason: mapFinishReason(rawFinishReason),
    ...(rawFinishReason ? { rawFinishReason } : {}),
    model: model || modelId,
  };
}

/** The reasoning a message or stream delta carries apart from its content: `reasoning_content` (llama.cpp, vLLM, DeepSeek) or `reasoning` (Ollama, newer vLLM). */
export function reasoningField(message: unknown): string | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const { reasoning_content: content, reasoning } = message as { reasoning_content?: unknown; reasoning?: unknown };
  if (typeof content === "string" && content.length > 0) return content;
  return typeof reasoning === "string" && reasoning.length > 0 ? reasoning : undefined;
}

/** The tool calls of a whole (not streamed) assistant message, or undefined when it has none. */
export function toolCallsOf(message: unknown): ToolCall[] | undefined {
  const calls = (message as { tool_calls?: unknown } | null | undefined)?.tool_calls;
  if (!Array.isArray(calls) || calls.length === 0) return undefined;
  return calls.map((call: unknown) => {
    const { id, function: fn } = (call ?? {}) as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
    const extra = extraFields(call);
    return {
      id: typeof id === "string" && id !== "" ? id : generatedCallId(),
      name: typeof fn?.name === "string" ? fn.name : "",
      arguments: argumentsText(fn?.arguments),
      ...(extra ? { extra } : {}),
    };
  });
}

/** Arguments as text: servers send a JSON string; a few (Ollama's native shape) an object. */
export function argumentsText(value: unknown): string {
  if (typeof value === "string") return value;
  return value === undefined || value === null ? "" : JSON.stringify(value);
}

const CALL_FIELDS = new Set(["id", "type", "function", "index"]);

/** The fields of a tool call object beyond id, type, function and index (e.g. Gemini's `extra_content`), or undefined. */
export function extraFields(call: unknown): Record<string, JsonValue> | undefined {
  if (typeof call !== "object" || call === null) return undefined;
  const entries = Object.entries(call).filter(([key, value]) => !CALL_FIELDS.has(key) && value !== undefined && value !== null);
  return entries.length > 0 ? (Object.fromEntries(entries) as Record<string, JsonValue>) : undefined;
}

/** An id for a call the server sent without one, so its result can still be answered by id. */
export function generatedCallId(): string {
  return `call_${randomUUID().replaceAll("-", "").slice(0, 24)}`;
}
