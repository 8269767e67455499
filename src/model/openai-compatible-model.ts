import { setTimeout as delay } from "node:timers/promises";
import OpenAI from "openai";
import { CHARS_PER_TOKEN } from "./estimate-tokens.ts";
import { ModelCallError } from "./model-call-error.ts";
import type { ModelClient, ModelRequest, ModelResponse, ModelStreamPart } from "./model-client.ts";
import { classifyFailure, FailedAttempt, oneLine, type Failure } from "./openai-failure.ts";
import { reasoningField, toModelResponse, toolCallsOf } from "./openai-reply.ts";
import { chatRequestBody } from "./openai-request-body.ts";
import { StreamAssembler } from "./openai-stream-assembler.ts";
import { ToolsUnsupportedError } from "./tools-unsupported-error.ts";
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
    for (let attempt = 1; ; attempt++) {
      this.#beginAttempt(request, attempt);
      try {
        return await this.#completeOnce(request, attempt);
      } catch (error) {
        await this.#afterFailure(request, error, attempt, false);
      }
    }
  }

  /**
   * Streams the reply (SSE, whatever the `stream` option says): text, reasoning and
   * tool-call deltas as they arrive, then `finish` with the whole response. Failures
   * before the first part are retried as in `complete`; a stream cut after parts were
   * yielded rejects with a {@link ModelCallError}.
   */
  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamPart> {
    for (let attempt = 1; ; attempt++) {
      this.#beginAttempt(request, attempt);
      let yielded = false;
      try {
        for await (const part of this.#streamOnce(request, attempt)) {
          yielded = true;
          yield part;
        }
        return;
      } catch (error) {
        await this.#afterFailure(request, error, attempt, yielded);
      }
    }
  }

  #beginAttempt(request: ModelRequest, attempt: number): void {
    if (request.signal?.aborted) throw this.#error({ failure: "aborted", retryable: false, cause: request.signal.reason }, attempt - 1);
    reportProgress(request.onProgress, { kind: "attempt", attempt, maxAttempts: this.#maxRetries + 1, timeoutMs: this.#timeoutMs });
  }

  /** Throws the failure of an attempt when it is final; otherwise reports the retry and waits for it. */
  async #afterFailure(request: ModelRequest, thrown: unknown, attempt: number, partsYielded: boolean): Promise<void> {
    const { retryBaseDelayMs = DEFAULT_RETRY_BASE_DELAY_MS, retryMaxDelayMs = DEFAULT_RETRY_MAX_DELAY_MS, onRetry } = this.#options;
    const failed = classifyFailure(thrown, { callerSignal: request.signal, timedOut: false, timeoutMs: this.#timeoutMs, sentTools: sendsTools(request) });
    if (failed.toolsRefused) {
      throw new ToolsUnsupportedError({ baseURL: this.baseURL, model: this.modelId, status: failed.status ?? 400, ...(failed.detail !== undefined ? { detail: failed.detail } : {}), attempts: attempt, cause: failed.cause });
    }
    const error = this.#error(failed, attempt);
    if (partsYielded || !failed.retryable || attempt > this.#maxRetries) throw error;

    const delayMs = retryDelayMs({ retry: attempt, baseDelayMs: retryBaseDelayMs, maxDelayMs: retryMaxDelayMs, headers: failed.headers, random: this.#options._internal?.random });
    onRetry?.({ attempt, delayMs, error });
    reportProgress(request.onProgress, { kind: "retry", attempt, maxAttempts: this.#maxRetries + 1, failure: failed.failure, ...(failed.status !== undefined ? { status: failed.status } : {}), delayMs, message: error.message });
    try {
      await this.#sleep(delayMs, request.signal);
    } catch (cause) {
      if (request.signal?.aborted) throw this.#error({ failure: "aborted", retryable: false, cause: request.signal.reason }, attempt);
      throw cause;
    }
  }

  /** One request for the whole reply; failures are thrown as {@link FailedAttempt}. */
  async #completeOnce(request: ModelRequest, attempt: number): Promise<ModelResponse> {
    if (this.#options.stream) {
      for await (const part of this.#streamOnce(request, attempt)) if (part.type === "finish") return part.response;
      throw new FailedAttempt({ failure: "bad-response", retryable: false, detail: "the stream ended without a reply" });
    }
    const limit = this.#timeLimit(request);
    try {
      const completion = await this.#client.chat.completions.create({ ...this.#body(request), stream: false }, { signal: limit.signal });
      const choice = Array.isArray(completion?.choices) ? completion.choices[0] : undefined;
      if (!choice) {
        const serverError = (completion as unknown as { error?: { message?: unknown } } | undefined)?.error?.message;
        throw new FailedAttempt({ failure: "bad-response", retryable: false, detail: typeof serverError === "string" ? oneLine(serverError) : "no choices in the reply" });
      }
      const toolCalls = toolCallsOf(choice.message);
      const reasoning = reasoningField(choice.message);
      return toModelResponse(
        request,
        { text: choice.message?.content ?? "", ...(reasoning ? { reasoning } : {}), ...(toolCalls ? { toolCalls } : {}), rawFinishReason: choice.finish_reason, usage: completion.usage, model: completion.model },
        this.modelId,
      );
    } catch (error) {
      throw new FailedAttempt(classifyFailure(error, { callerSignal: request.signal, timedOut: limit.timedOut(), timeoutMs: this.#timeoutMs, sentTools: sendsTools(request) }));
    } finally {
      limit.clear();
    }
  }

  /** One streamed request, as parts; failures are thrown as {@link FailedAttempt}. */
  async *#streamOnce(request: ModelRequest, attempt: number): AsyncGenerator<ModelStreamPart> {
    const limit = this.#timeLimit(request);
    try {
      const stream = await this.#client.chat.completions.create({ ...this.#body(request), stream: true, stream_options: { include_usage: true } }, { signal: limit.signal });
      const assembler = new StreamAssembler();
      for await (const chunk of stream) {
        const parts = assembler.push(chunk);
        if (request.onProgress && parts.some((part) => part.type === "text-delta" || part.type === "reasoning-delta")) {
          const { characters, reasoningCharacters } = assembler.received;
          reportProgress(request.onProgress, { kind: "output", attempt, characters, reasoningCharacters, estimatedTokens: Math.ceil((characters + reasoningCharacters) / CHARS_PER_TOKEN) });
        }
        for (const part of parts) yield part;
      }
      // The openai Stream ends quietly when its signal aborts; a cut-off reply must not pass for a whole one.
      limit.signal.throwIfAborted();
      yield { type: "finish", response: toModelResponse(request, assembler.reply(), this.modelId) };
    } catch (error) {
      throw new FailedAttempt(classifyFailure(error, { callerSignal: request.signal, timedOut: limit.timedOut(), timeoutMs: this.#timeoutMs, sentTools: sendsTools(request) }));
    } finally {
      limit.clear();
    }
  }

  /** The signal of one attempt: the caller's, or the time limit running out. */
  #timeLimit(request: ModelRequest): { readonly signal: AbortSignal; timedOut(): boolean; clear(): void } {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new Error(`no complete answer within ${this.#timeoutMs} ms`)), this.#timeoutMs);
    return {
      signal: request.signal ? AbortSignal.any([request.signal, timeout.signal]) : timeout.signal,
      timedOut: () => timeout.signal.aborted,
      clear: () => clearTimeout(timer),
    };
  }

  #body(request: ModelRequest) {
    return chatRequestBody(request, { model: this.modelId, maxTokens: this.#options.maxTokens, temperature: this.#options.temperature });
  }

  #error(failure: Failure, attempts: number): ModelCallError {
    const { headers: _headers, toolsRefused: _toolsRefused, ...fields } = failure;
    return new ModelCallError({ ...fields, baseURL: this.baseURL, model: this.modelId, attempts });
  }
}

function sendsTools(request: ModelRequest): boolean {
  return request.tools !== undefined && request.tools.length > 0;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}
