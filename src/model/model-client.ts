import type { ModelProgress } from "./model-progress.ts";

/** One chat message, in the shape every OpenAI-compatible server accepts. */
export interface ChatMessage {
  readonly role: "system" | "user" | "assistant";
  readonly content: string;
}

/** What a session asks of a model. */
export interface ModelRequest {
  /** The chat so far, system prompt first. */
  readonly messages: readonly ChatMessage[];
  /** Upper bound on completion tokens; the client's default when absent. */
  readonly maxTokens?: number;
  /** Sampling temperature; the client's default when absent. */
  readonly temperature?: number;
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

/** Why the model stopped: a short union for the loop, the raw value kept for logs. */
export type FinishReason = "stop" | "length" | "content-filter" | "error" | "other";

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
 * The seam between rlmkit and a language model. Implemented by
 * `OpenAICompatibleModel` (any OpenAI-compatible HTTP server) and `ScriptedModel`
 * (replies from a list, for tests and replays).
 */
export interface ModelClient {
  /** The model's name, used for pricing, traces and usage breakdowns. */
  readonly modelId: string;
  /** The model's context window in tokens, when known. */
  readonly contextWindow?: number;
  /** Sends one chat request and resolves with the reply. Rejects on a failure it could not retry away. */
  complete(request: ModelRequest): Promise<ModelResponse>;
}
