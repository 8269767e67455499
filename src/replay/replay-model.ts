import { splitReasoning } from "../model/split-reasoning.ts";
import type { SessionEvent } from "../core/events.ts";
import type { ModelClient, ModelRequest, ModelResponse, ModelStreamPart } from "../model/model-client.ts";
import { responseParts } from "../model/response-parts.ts";
import { mapFinishReason } from "../model/finish-reason.ts";
import { promptDigest } from "../subcalls/subcall-functions.ts";

type ModelCallEvent = Extract<SessionEvent, { type: "model_call" }>;

/**
 * The recorded session's model ran out of replies: the replayed run asked for more
 * turns than the recording has, so it took a different path.
 */
export class ReplayDivergedError extends Error {
  override readonly name = "ReplayDivergedError";
  /** Replies in the recording. */
  readonly recordedReplies: number;

  constructor(recordedReplies: number) {
    super(`the trace has ${recordedReplies} recorded model repl${recordedReplies === 1 ? "y" : "ies"} and the replay asked for one more: the run diverged from the recording`);
    this.recordedReplies = recordedReplies;
  }
}

/**
 * A {@link ModelClient} that answers with the replies recorded in a trace, in
 * order, with their recorded token usage, finish reason, reasoning and tool calls
 * (provider extras included). No network is used. `stream()` hands each reply out
 * as parts: reasoning, text, each tool call, then `finish`.
 * Requests are recorded too, so a caller can compare what the replayed session
 * sent with what it received.
 *
 * @example
 * const { events } = readTrace("run.jsonl");
 * const model = ReplayModel.fromEvents(events);
 * await runSession({ question, model, tools });
 */
export class ReplayModel implements ModelClient {
  readonly modelId: string;
  readonly #calls: readonly ModelCallEvent[];
  readonly #byPrompt: Map<string, ModelCallEvent[]>;
  #next = 0;
  #keyedUsed = 0;

  /**
   * @param calls replies handed out in order
   * @param modelId the model name to report
   * @param byPrompt replies for single-message requests, keyed by the SHA-256 of the prompt; such a request takes its own prompt's reply whatever order it comes in
   */
  constructor(calls: readonly ModelCallEvent[], modelId?: string, byPrompt: ReadonlyMap<string, readonly ModelCallEvent[]> = new Map()) {
    this.#calls = [...calls];
    this.#byPrompt = new Map([...byPrompt].map(([key, replies]) => [key, [...replies]]));
    this.modelId = modelId ?? calls[0]?.model ?? [...byPrompt.values()][0]?.[0]?.model ?? "replay";
  }

  /**
   * Takes the model replies of one session from a trace: the session with
   * `sessionId`, or the first root session (depth 0) when absent.
   */
  static fromEvents(events: readonly SessionEvent[], sessionId?: string): ReplayModel {
    const start = events.find((event) => event.type === "session_start" && (sessionId === undefined ? (event.depth ?? 0) === 0 : event.sessionId === sessionId));
    const id = sessionId ?? start?.sessionId;
    const calls = events.filter((event): event is ModelCallEvent => event.type === "model_call" && event.sessionId === id);
    return new ReplayModel(calls, start?.type === "session_start" ? start.model : undefined);
  }

  /**
   * Takes the sub-model's replies from a trace: `llm_query` replies (from
   * `subcall_end`; cache hits and refusals excluded) keyed by their prompt's
   * digest, so a concurrent `llm_query_batched` gets each prompt's own reply in
   * whatever order the calls arrive; and the turns of `rlm_query` child sessions,
   * in the order they were recorded.
   */
  static subModelFromEvents(events: readonly SessionEvent[]): ReplayModel {
    const calls: ModelCallEvent[] = [];
    const byPrompt = new Map<string, ModelCallEvent[]>();
    const digests = new Map<string, string>();
    let model: string | undefined;
    for (const event of events) {
      if (event.type === "model_call" && (event.depth ?? 0) > 0) calls.push(event);
      if (event.type === "subcall_start" && event.promptSha256 !== undefined) digests.set(event.subcallId, event.promptSha256);
      if (event.type === "subcall_end" && event.kind === "llm" && !event.cached && event.refused === undefined && event.error === undefined) {
        model ??= event.model;
        const text = typeof event.response === "string" ? event.response : JSON.stringify(event.response ?? "");
        const call: ModelCallEvent = { ...event, type: "model_call", messages: 1, usageEstimated: false, finishReason: "stop", text };
        const digest = digests.get(event.subcallId);
        if (digest === undefined) calls.push(call);
        else byPrompt.set(digest, [...(byPrompt.get(digest) ?? []), call]);
      }
    }
    return new ReplayModel(calls, model ?? calls[0]?.model ?? "replay-sub-model", byPrompt);
  }

  /** Replies recorded. */
  get recorded(): number {
    let keyed = 0;
    for (const replies of this.#byPrompt.values()) keyed += replies.length;
    return this.#calls.length + keyed + this.#keyedUsed;
  }

  /** Replies handed out so far. */
  get used(): number {
    return this.#next + this.#keyedUsed;
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    request.signal?.throwIfAborted();
    const keyed = request.messages.length === 1 ? this.#byPrompt.get(promptDigest(request.messages[0].content))?.shift() : undefined;
    const call = keyed ?? this.#calls[this.#next];
    if (!call) throw new ReplayDivergedError(this.recorded);
    if (keyed) this.#keyedUsed++;
    else this.#next++;
    return {
      text: call.text,
      usage: { promptTokens: call.promptTokens, completionTokens: call.completionTokens },
      ...(call.usageEstimated ? { usageEstimated: true } : {}),
      finishReason: mapFinishReason(call.finishReason),
      rawFinishReason: call.finishReason,
      model: call.model,
      // Reasoning the server sent in its own field is only in the event: hand it back, so a reasoning-only reply replays as one.
      ...(call.reasoning !== undefined && splitReasoning(call.text).reasoning === undefined ? { reasoning: call.reasoning } : {}),
      ...(call.toolCalls && call.toolCalls.length > 0 ? { toolCalls: call.toolCalls.map((toolCall) => ({ ...toolCall })) } : {}),
    };
  }

  /** The next recorded reply as stream parts. */
  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamPart> {
    yield* responseParts(await this.complete(request));
  }
}
