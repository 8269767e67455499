import { setTimeout as delay } from "node:timers/promises";
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { CHARS_PER_TOKEN, estimateUsage } from "./estimate-tokens.ts";
import { mapFinishReason } from "./finish-reason.ts";
import { ModelCallError, type ModelCallFailure } from "./model-call-error.ts";
import type { ModelClient, ModelRequest, ModelResponse, TokenUsage } from "./model-client.ts";
import { ModelConfigurationError } from "./model-configuration-error.ts";
import { reportProgress } from "./model-progress.ts";
import { retryDelayMs } from "./retry-delay.ts";
import { DEFAULT_BASE_URL } from "./model-defaults.ts";

export { DEFAULT_BASE_URL };
/** Default time one request may take, streaming included: 120 s. */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** Default number of retries after the first attempt: 3 (so at most 4 requests). */
export const DEFAULT_MAX_RETRIES = 3;
/** Default backoff base: the first retry waits 0.25–0.5 s, the next twice that, … */
export const DEFAULT_RETRY_BASE_DELAY_MS = 500;
/** Default cap on any wait between retries, Retry-After included: 60 s. */
export const DEFAULT_RETRY_MAX_DELAY_MS = 60_000;
/** API key sent to servers that need none (a base URL is set but no key): local servers ignore it. */
export const PLACEHOLDER_API_KEY = "rlmkit-no-key";

/** Options of an {@link OpenAICompatibleModel}. Each falls back as documented; all are optional. */
export interface OpenAICompatibleModelOptions {
  /** Server base URL including `/v1`. Default `OPENAI_BASE_URL`, then {@link DEFAULT_BASE_URL}. */
  readonly baseURL?: string;
  /** Default `OPENAI_API_KEY`; when absent and a base URL is set, {@link PLACEHOLDER_API_KEY}. */
  readonly apiKey?: string;
  /** Model name sent to the server. Default `RLMKIT_MODEL`; a {@link ModelConfigurationError} when neither is set. */
  readonly model?: string;
  /** Time one request may take, from sending to the last streamed token. Default 120 000 ms. */
  readonly timeoutMs?: number;
  /** Retries after the first attempt on 408/409/429/5xx, timeouts and connection failures. Default 3. */
  readonly maxRetries?: number;
  /** Backoff base between retries. Default 500 ms. */
  readonly retryBaseDelayMs?: number;
  /** Cap on any wait between retries, Retry-After included. Default 60 000 ms. */
  readonly retryMaxDelayMs?: number;
  /** Stream the reply (SSE). Default false. Usage is requested with `stream_options.include_usage`. */
  readonly stream?: boolean;
  /** The model's context window in tokens, when known. */
  readonly contextWindow?: number;
  /** Default sampling temperature; a request's own `temperature` wins. Server default when absent. */
  readonly temperature?: number;
  /** Default completion token limit, sent as `max_tokens`; a request's own `maxTokens` wins. */
  readonly maxTokens?: number;
  /** Extra HTTP headers for every request (e.g. OpenRouter's `HTTP-Referer`). */
  readonly headers?: Record<string, string>;
  /** A `fetch` implementation to use instead of the global one. */
  readonly fetch?: typeof fetch;
  /** Called before each retry with the failure and the wait; for progress output and traces. */
  readonly onRetry?: (retry: ModelRetry) => void;
  /** Test seams: the wait between retries and the jitter source. */
  readonly _internal?: {
    readonly sleep?: (milliseconds: number, signal: AbortSignal | undefined) => Promise<void>;
    readonly random?: () => number;
  };
}

/** Reported to `onRetry` before a retry. */
export interface ModelRetry {
  /** The attempt that failed, from 1. */
  readonly attempt: number;
  /** The wait before the next attempt. */
  readonly delayMs: number;
  /** What went wrong, as it would be thrown if no retries were left. */
  readonly error: ModelCallError;
}

/**
 * A {@link ModelClient} for any server that speaks the OpenAI chat completions API:
 * OpenAI, OpenRouter, vLLM, Ollama, llama.cpp server, LM Studio. Built on the
 * `openai` package, with that client's own retries switched off: the retry loop is
 * here so that every attempt, wait and failure is visible (`onRetry`) and each
 * attempt, streaming included, gets the full timeout.
 *
 * - Retries with exponential backoff and jitter on 408, 409, 429, 5xx, timeouts and
 *   connection failures, honouring `retry-after-ms` / `Retry-After` (capped at
 *   `retryMaxDelayMs`); never on other statuses (400, 401, 403, 404, 422, …).
 * - The request's `signal` aborts the call, including a wait between retries.
 * - Usage comes from the server; when it sends none, it is estimated from text
 *   length (`ceil(characters / 4)`) and `usageEstimated` is set.
 * - Failures reject with a {@link ModelCallError} whose message is one actionable line.
 * - The request's `onProgress` hears of each request sent (with the time-out), each
 *   retry (failure, status, wait) and, when streaming, the output received so far.
 *
 * @example
 * // A local server: no key needed.
 * const model = new OpenAICompatibleModel({ baseURL: "http://127.0.0.1:11434/v1", model: "qwen2.5-coder:7b" });
 * const reply = await model.complete({ messages: [{ role: "user", content: "Say hi" }] });
 * reply.text; reply.usage.promptTokens;
 *
 * // Everything from the environment: OPENAI_BASE_URL, OPENAI_API_KEY, RLMKIT_MODEL.
 * const fromEnv = new OpenAICompatibleModel();
 */
export class OpenAICompatibleModel implements ModelClient {
  readonly modelId: string;
  readonly contextWindow?: number;
  /** The server base URL in use, after fallbacks. */
  readonly baseURL: string;
  readonly #client: OpenAI;
  readonly #options: OpenAICompatibleModelOptions;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #sleep: (milliseconds: number, signal: AbortSignal | undefined) => Promise<void>;

  constructor(options: OpenAICompatibleModelOptions = {}) {
    const { timeoutMs = DEFAULT_TIMEOUT_MS, maxRetries = DEFAULT_MAX_RETRIES, contextWindow, headers, fetch } = options;
    const configuredBaseURL = nonEmpty(options.baseURL) ?? nonEmpty(process.env.OPENAI_BASE_URL);
    const model = nonEmpty(options.model) ?? nonEmpty(process.env.RLMKIT_MODEL);
    if (model === undefined) {
      throw new ModelConfigurationError({
        setting: "model",
        message: "No model name: pass --model (the `model` option) or set RLMKIT_MODEL, e.g. RLMKIT_MODEL=qwen2.5-coder:7b.",
      });
    }
    // Only another server (a local one, say) may go without a key; the default endpoint named explicitly still needs one.
    const otherServer = configuredBaseURL !== undefined && configuredBaseURL.replace(/\/+$/, "") !== DEFAULT_BASE_URL;
    const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(process.env.OPENAI_API_KEY) ?? (otherServer ? PLACEHOLDER_API_KEY : undefined);
    if (apiKey === undefined) {
      throw new ModelConfigurationError({
        setting: "apiKey",
        message: `No API key for ${DEFAULT_BASE_URL}: pass --api-key or set OPENAI_API_KEY. For a local server, set --base-url / OPENAI_BASE_URL instead (no key needed).`,
      });
    }
    if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw new RangeError(`OpenAICompatibleModel: timeoutMs must be a positive number, got ${timeoutMs}.`);
    if (!(Number.isInteger(maxRetries) && maxRetries >= 0)) throw new RangeError(`OpenAICompatibleModel: maxRetries must be a whole number ≥ 0, got ${maxRetries}.`);

    this.baseURL = (configuredBaseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
    this.modelId = model;
    if (contextWindow !== undefined) this.contextWindow = contextWindow;
    this.#options = options;
    this.#timeoutMs = timeoutMs;
    this.#maxRetries = maxRetries;
    this.#sleep = options._internal?.sleep ?? ((milliseconds, signal) => delay(milliseconds, undefined, { signal }));
    this.#client = new OpenAI({
      baseURL: this.baseURL,
      apiKey,
      maxRetries: 0,
      timeout: timeoutMs,
      ...(headers ? { defaultHeaders: headers } : {}),
      ...(fetch ? { fetch } : {}),
    });
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const { retryBaseDelayMs = DEFAULT_RETRY_BASE_DELAY_MS, retryMaxDelayMs = DEFAULT_RETRY_MAX_DELAY_MS, onRetry } = this.#options;
    const maxAttempts = this.#maxRetries + 1;
    for (let attempt = 1; ; attempt++) {
      if (request.signal?.aborted) throw this.#error({ failure: "aborted", retryable: false, cause: request.signal.reason }, attempt - 1);
      reportProgress(request.onProgress, { kind: "attempt", attempt, maxAttempts, timeoutMs: this.#timeoutMs });
      let failed: Failure;
      try {
        return await this.#attempt(request, attempt);
      } catch (error) {
        failed = error instanceof FailedAttempt ? error.failure : this.#classify(error, request.signal, false);
      }
      const error = this.#error(failed, attempt);
      if (!failed.retryable || attempt > this.#maxRetries) throw error;

      const delayMs = retryDelayMs({ retry: attempt, baseDelayMs: retryBaseDelayMs, maxDelayMs: retryMaxDelayMs, headers: failed.headers, random: this.#options._internal?.random });
      onRetry?.({ attempt, delayMs, error });
      reportProgress(request.onProgress, { kind: "retry", attempt, maxAttempts, failure: failed.failure, ...(failed.status !== undefined ? { status: failed.status } : {}), delayMs, message: error.message });
      try {
        await this.#sleep(delayMs, request.signal);
      } catch (cause) {
        if (request.signal?.aborted) throw this.#error({ failure: "aborted", retryable: false, cause: request.signal.reason }, attempt);
        throw cause;
      }
    }
  }

  /** One request, bounded by the timeout; failures are thrown as {@link FailedAttempt}. */
  async #attempt(request: ModelRequest, attempt: number): Promise<ModelResponse> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new Error(`no complete answer within ${this.#timeoutMs} ms`)), this.#timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout.signal]) : timeout.signal;
    try {
      return this.#options.stream ? await this.#streamed(request, signal, attempt) : await this.#plain(request, signal);
    } catch (error) {
      if (error instanceof FailedAttempt) throw error;
      throw new FailedAttempt(this.#classify(error, request.signal, timeout.signal.aborted));
    } finally {
      clearTimeout(timer);
    }
  }

  async #plain(request: ModelRequest, signal: AbortSignal): Promise<ModelResponse> {
    const completion = await this.#client.chat.completions.create({ ...this.#body(request), stream: false }, { signal });
    const choice = Array.isArray(completion?.choices) ? completion.choices[0] : undefined;
    if (!choice) {
      const serverError = (completion as unknown as { error?: { message?: unknown } } | undefined)?.error?.message;
      throw new FailedAttempt({
        failure: "bad-response",
        retryable: false,
        detail: typeof serverError === "string" ? oneLine(serverError) : "no choices in the reply",
      });
    }
    const text = choice.message?.content ?? "";
    return this.#response(request, text, choice.finish_reason, completion.usage, completion.model, reasoningField(choice.message));
  }

  async #streamed(request: ModelRequest, signal: AbortSignal, attempt: number): Promise<ModelResponse> {
    const stream = await this.#client.chat.completions.create(
      { ...this.#body(request), stream: true, stream_options: { include_usage: true } },
      { signal },
    );
    let text = "";
    let reasoning = "";
    let rawFinishReason: string | null | undefined;
    let usage: UsageBody | null | undefined;
    let model: string | undefined;
    for await (const chunk of stream) {
      model ||= chunk.model;
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      if (typeof choice.delta?.content === "string") text += choice.delta.content;
      const reasoningPart = reasoningField(choice.delta);
      reasoning += reasoningPart ?? "";
      if (request.onProgress && (reasoningPart || choice.delta?.content)) {
        const characters = text.length;
        const reasoningCharacters = reasoning.length;
        reportProgress(request.onProgress, { kind: "output", attempt, characters, reasoningCharacters, estimatedTokens: Math.ceil((characters + reasoningCharacters) / CHARS_PER_TOKEN) });
      }
      if (choice.finish_reason) rawFinishReason = choice.finish_reason;
    }
    // The openai Stream ends quietly when its signal aborts; a cut-off reply must not pass for a whole one.
    signal.throwIfAborted();
    return this.#response(request, text, rawFinishReason, usage, model, reasoning);
  }

  #body(request: ModelRequest) {
    const maxTokens = request.maxTokens ?? this.#options.maxTokens;
    const temperature = request.temperature ?? this.#options.temperature;
    return {
      model: this.modelId,
      messages: request.messages.map(({ role, content }) => ({ role, content })),
      ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
      ...(temperature !== undefined ? { temperature } : {}),
    };
  }

  #response(request: ModelRequest, text: string, rawFinishReason: string | null | undefined, usage: UsageBody | null | undefined, model: string | undefined, reasoning: string | undefined): ModelResponse {
    const reported: TokenUsage | undefined =
      usage && typeof usage.prompt_tokens === "number" && typeof usage.completion_tokens === "number"
        ? { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens }
        : undefined;
    return {
      text,
      ...(reasoning ? { reasoning } : {}),
      // Reasoning tokens count as completion tokens when the server reports none.
      usage: reported ?? estimateUsage(request.messages, reasoning ? `${reasoning}${text}` : text),
      ...(reported ? {} : { usageEstimated: true }),
      finishReason: mapFinishReason(rawFinishReason),
      ...(rawFinishReason ? { rawFinishReason } : {}),
      model: model || this.modelId,
    };
  }

  #classify(error: unknown, callerSignal: AbortSignal | undefined, timedOut: boolean): Failure {
    if (callerSignal?.aborted) return { failure: "aborted", retryable: false, cause: callerSignal.reason };
    if (timedOut || error instanceof APIConnectionTimeoutError) {
      return { failure: "timeout", retryable: true, detail: `no complete answer within ${this.#timeoutMs} ms`, cause: error };
    }
    if (error instanceof APIError && typeof error.status === "number") {
      const { status } = error;
      return {
        failure: "status",
        status,
        retryable: status === 408 || status === 409 || status === 429 || status >= 500,
        detail: serverMessage(error),
        headers: error.headers,
        cause: error,
      };
    }
    if (error instanceof APIUserAbortError) return { failure: "aborted", retryable: false, cause: error };
    const network = networkDetail(error);
    if (error instanceof APIConnectionError || network !== undefined) {
      return { failure: "connection", retryable: true, detail: network ?? "connection failed", cause: error };
    }
    return { failure: "bad-response", retryable: false, detail: oneLine(error instanceof Error ? error.message : String(error)), cause: error };
  }

  #error(failure: Failure, attempts: number): ModelCallError {
    const { headers: _headers, ...fields } = failure;
    return new ModelCallError({ ...fields, baseURL: this.baseURL, model: this.modelId, attempts });
  }
}

/** The reasoning a message or stream delta carries apart from its content: `reasoning_content` (llama.cpp, vLLM, DeepSeek) or `reasoning` (Ollama, newer vLLM). */
function reasoningField(message: unknown): string | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const { reasoning_content: content, reasoning } = message as { reasoning_content?: unknown; reasoning?: unknown };
  if (typeof content === "string" && content.length > 0) return content;
  return typeof reasoning === "string" && reasoning.length > 0 ? reasoning : undefined;
}

type UsageBody = { prompt_tokens?: number; completion_tokens?: number };

interface Failure {
  readonly failure: ModelCallFailure;
  readonly retryable: boolean;
  readonly status?: number;
  readonly detail?: string;
  readonly headers?: Headers;
  readonly cause?: unknown;
}

/** Carries a classified failure out of one attempt. */
class FailedAttempt extends Error {
  readonly failure: Failure;
  constructor(failure: Failure) {
    super(failure.detail ?? failure.failure);
    this.failure = failure;
  }
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  EPIPE: "connection reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host not found",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connect timed out",
  UND_ERR_CONNECT_TIMEOUT: "connect timed out",
  UND_ERR_SOCKET: "connection closed by the server",
  UND_ERR_CLOSED: "connection closed by the server",
};

/** A short description of a network failure found in the cause chain, or undefined when it is not one. */
function networkDetail(error: unknown): string | undefined {
  let innermost: string | undefined;
  let sawFetchFailure = false;
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 8; current = current.cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_CODES[code]) return NETWORK_CODES[code];
    if (current instanceof TypeError && /fetch failed|terminated/i.test(current.message)) sawFetchFailure = true;
    innermost = current.message;
  }
  return sawFetchFailure ? oneLine(innermost ?? "connection failed") : undefined;
}

function serverMessage(error: APIError): string | undefined {
  const body = error.error as { message?: unknown } | undefined;
  const message = typeof body?.message === "string" ? body.message : error.message.replace(/^\d{3}\s+/, "");
  return message && !/status code \(no body\)/.test(message) ? oneLine(message) : undefined;
}

const DETAIL_CHARS = 200;

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > DETAIL_CHARS ? `${line.slice(0, DETAIL_CHARS)}…` : line;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}
