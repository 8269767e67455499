import type { JsonValue } from "../core/json-value.ts";
import type { JsonSchema } from "../tools/json-schema.ts";
import type { ModelProgress } from "./model-progress.ts";

/**
 * A call of a tool the model asked for through the provider's tool-calling API
 * (`tool_calls`). The arguments stay the raw text the provider sent: checking
 * them is the protocol's job, not the client's.
 */
export interface ToolCall {
  /** The provider's id of the call; a `tool` message answers it by this id (`toolCallId`). */
  readonly id: string;
  readonly name: string;
  /** Raw JSON text as the provider sent it (it may be malformed, or empty). */
  readonly arguments: string;
  /**
   * Fields the provider put on the call beside `id`, `type` and `function`, which it
   * wants back on the same call in the next request, kept as sent. Gemini's
   * OpenAI-compatible endpoint sends `extra_content.google.thought_signature` on each
   * call and rejects the next request without it.
   */
  readonly extra?: Readonly<Record<string, JsonValue>>;
}

/**
 * One chat message, in the shape every OpenAI-compatible server accepts.
 * Assistant messages may carry the tool calls the model made; a `tool` message
 * carries the result of one of them.
 */
export interface ChatMessage {
  readonly role: "system" | "user" | "assistant" | "tool";
  /** The text; a tool result's text for `tool` messages; may be empty next to tool calls. */
  readonly content: string;
  /** Assistant messages only: the calls the model made in this reply, in order. */
  readonly toolCalls?: readonly ToolCall[];
  /** `tool` messages only (required there): the `id` of the call this message answers. */
  readonly toolCallId?: string;
  /** `tool` messages: the name of the tool that produced the result. */
  readonly name?: string;
}

/** A tool offered to the model through the provider's tool-calling API. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  /** The tool's parameters as a JSON Schema (the same schema its arguments are validated against). */
  readonly parameters: JsonSchema;
}

/**
 * Whether the model must call a tool: `auto` (it decides; the provider's default when
 * tools are sent), `none`, `required` (some tool), or the tool named.
 */
export type ToolChoice = "auto" | "none" | "required" | { readonly name: string };

/** What a session asks of a model. */
export interface ModelRequest {
  /** The chat so far, system prompt first. */
  readonly messages: readonly ChatMessage[];
  /** Upper bound on completion tokens; the client's default when absent. */
  readonly maxTokens?: number;
  /** Sampling temperature; the client's default when absent. */
  readonly temperature?: number;
  /**
   * Tools the model may call through the provider's tool-calling API. A server that
   * does not take tools makes the call reject with a `ToolsUnsupportedError`.
   */
  readonly tools?: readonly ToolSpec[];
  /** Whether (and which) tool the model must call; only meaningful with `tools`. */
  readonly toolChoice?: ToolChoice;
  /** Stop sequences: the model stops before writing any of them. */
  readonly stop?: readonly string[];
  /**
   * Aborts the request (session timeout, budget exhausted, caller cancelled): `complete`
   * then rejects without retrying. The rejection's type depends on the client, so
   * callers should check `signal.aborted` rather than the error.
   */
  readonly signal?: AbortSignal;
  /**
   * Told what the call is doing while it runs: each request sent (with its time-out),
   * each retry (failure, status, wait) and streamed output so far. Optional for
   * clients; what it throws is ignored.
   */
  readonly onProgress?: (progress: ModelProgress) => void;
}

/** Token counts for one model call. */
export interface TokenUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/**
 * Why the model stopped: a short union for the loop, the raw value kept for logs.
 * `tool-calls`: it stopped to have its tool calls run.
 */
export type FinishReason = "stop" | "length" | "tool-calls" | "content-filter" | "error" | "other";

/** What a model answered. */
export interface ModelResponse {
  /** The assistant's reply text, as the server sent it (reasoning tags in it included). */
  readonly text: string;
  /**
   * Reasoning the server sent apart from the text (`reasoning_content` or
   * `reasoning`, as llama.cpp, vLLM, Ollama and DeepSeek do). Never run, never an answer.
   * Reasoning inside the text (`<think>…</think>`) is split off by `splitReasoning`.
   */
  readonly reasoning?: string;
  /**
   * The tool calls the model made through the provider's tool-calling API, in order
   * (several when it calls tools in parallel). Absent when it made none. Tool calls a
   * model writes into its text instead are part of `text`, for the protocol to read.
   */
  readonly toolCalls?: readonly ToolCall[];
  /** Token usage as reported by the server (or estimated, see `usageEstimated`). */
  readonly usage: TokenUsage;
  /** True when the server reported no usage and the counts were estimated from text length. */
  readonly usageEstimated?: boolean;
  readonly finishReason: FinishReason;
  /** The provider's own finish reason, kept for traces. */
  readonly rawFinishReason?: string;
  /** The model that answered, as the server named it. */
  readonly model: string;
}

/**
 * One part of a streamed reply, in the order the model wrote it:
 *
 * - `text-delta`, `reasoning-delta`: more reply text, more reasoning;
 * - `tool-call-delta`: more of the tool call at `index` (0 for the model's first call
 *   in this reply); its first delta carries `id` and `name`, the following ones the
 *   rest of the arguments' text;
 * - `finish`: always last, exactly once: the whole response, as `complete` would
 *   have returned it (the deltas joined, tool calls assembled, usage, finish reason).
 */
export type ModelStreamPart =
  | { readonly type: "text-delta"; readonly text: string }
  | { readonly type: "reasoning-delta"; readonly text: string }
  | { readonly type: "tool-call-delta"; readonly index: number; readonly id?: string; readonly name?: string; readonly argumentsDelta: string }
  | { readonly type: "finish"; readonly response: ModelResponse };

/**
 * The seam between rlmkit and a language model. Implemented by
 * `OpenAICompatibleModel` (any OpenAI-compatible HTTP server), `ScriptedModel`
 * (replies from a list, for tests) and `ReplayModel` (replies from a trace).
 */
export interface ModelClient {
  /** The model's name, used for pricing, traces and usage breakdowns. */
  readonly modelId: string;
  /** The model's context window in tokens, when known. */
  readonly contextWindow?: number;
  /** Sends one chat request and resolves with the reply. Rejects on a failure it could not retry away. */
  complete(request: ModelRequest): Promise<ModelResponse>;
  /**
   * Sends one chat request and yields the reply as it is written, ending with a
   * `finish` part that holds the whole response. Optional: a client without it is
   * used through `complete`. Fails as `complete` does; a failure after parts were
   * yielded is not retried (the parts cannot be taken back).
   */
  stream?(request: ModelRequest): AsyncIterable<ModelStreamPart>;
}
