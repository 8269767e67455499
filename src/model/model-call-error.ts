/**
 * What went wrong in a model call:
 * - `connection`: the server could not be reached, or dropped the connection;
 * - `timeout`: no complete answer within the request timeout;
 * - `status`: the server answered with an HTTP error status (see `status`);
 * - `bad-response`: the server answered 200 with something that is not a chat completion;
 * - `aborted`: the request's `AbortSignal` fired.
 */
export type ModelCallFailure = "connection" | "timeout" | "status" | "bad-response" | "aborted";

/** Fields of a {@link ModelCallError}. */
export interface ModelCallErrorOptions {
  readonly failure: ModelCallFailure;
  /** The server's base URL, as configured. */
  readonly baseURL: string;
  /** The model name requested. */
  readonly model: string;
  /** Requests sent, retries included. */
  readonly attempts: number;
  /** HTTP status, for `failure: "status"`. */
  readonly status?: number;
  /** A short detail: the server's error message, `connection refused`, the timeout in ms, … */
  readonly detail?: string;
  /** Whether this kind of failure is worth retrying (it was, until attempts ran out, when true). */
  readonly retryable: boolean;
  readonly cause?: unknown;
  /** Replaces the default one-line message. */
  readonly message?: string;
}

/**
 * A model call failed and could not be retried away. The message is one line a
 * user can act on, e.g. "Could not reach the model server at
 * http://127.0.0.1:9/v1 (connection refused) after 4 attempts. Check --base-url / OPENAI_BASE_URL."
 * The underlying error (from the `openai` client or `fetch`) is kept in `cause`.
 */
export class ModelCallError extends Error {
  override readonly name: string = "ModelCallError";
  readonly failure: ModelCallFailure;
  readonly baseURL: string;
  readonly model: string;
  readonly attempts: number;
  readonly status: number | undefined;
  readonly detail: string | undefined;
  /** True for 408/409/429/5xx, timeouts and connection failures: retrying later may succeed. */
  readonly retryable: boolean;

  constructor(options: ModelCallErrorOptions) {
    super(options.message ?? ModelCallError.describe(options), { cause: options.cause });
    this.failure = options.failure;
    this.baseURL = options.baseURL;
    this.model = options.model;
    this.attempts = options.attempts;
    this.status = options.status;
    this.detail = options.detail;
    this.retryable = options.retryable;
  }

  /** Builds the default one-line message from the fields. */
  static describe({ failure, baseURL, model, attempts, status, detail }: ModelCallErrorOptions): string {
    const after = `after ${attempts} attempt${attempts === 1 ? "" : "s"}`;
    const said = detail ? `: ${detail}` : "";
    switch (failure) {
      case "connection":
        return `Could not reach the model server at ${baseURL} (${detail ?? "connection failed"}) ${after}. Check --base-url / OPENAI_BASE_URL.`;
      case "timeout":
        return `The model server at ${baseURL} did not answer in time (${detail ?? "timed out"}) ${after}. Raise the limit with --request-timeout-ms (RLMKIT_REQUEST_TIMEOUT_MS; the timeoutMs option in code), or check that the server is not overloaded.`;
      case "aborted":
        return `The call to model '${model}' at ${baseURL} was aborted${said}.`;
      case "bad-response":
        return `The model server at ${baseURL} sent a reply that is not a chat completion${said}. Check that --base-url points at an OpenAI-compatible /v1 endpoint.`;
      case "status":
        if (status === 401 || status === 403) {
          return `The model server at ${baseURL} refused the API key (${status}${said}). Check --api-key / OPENAI_API_KEY.`;
        }
        if (status === 404) {
          return `The model server at ${baseURL} answered 404 for model '${model}'${said ? ` (${detail})` : ""}. Check --model / RLMKIT_MODEL and --base-url.`;
        }
        if (status === 429) {
          return `The model server at ${baseURL} kept rate-limiting requests (429${said}) ${after}. Wait, or lower the request rate.`;
        }
        if (status !== undefined && status >= 500) {
          return `The model server at ${baseURL} failed with ${status}${said ? ` (${detail})` : ""} ${after}.`;
        }
        return `The model server at ${baseURL} rejected the request for model '${model}' (${status ?? "unknown status"}${said}).`;
    }
  }
}
