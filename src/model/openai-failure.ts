import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import type { ModelCallFailure } from "./model-call-error.ts";

/** One failed attempt, classified: what went wrong and whether a retry may help. */
export interface Failure {
  readonly failure: ModelCallFailure;
  readonly retryable: boolean;
  readonly status?: number;
  readonly detail?: string;
  readonly headers?: Headers;
  readonly cause?: unknown;
  /** The server refused the request because it carried tools. */
  readonly toolsRefused?: boolean;
}

/** Carries a classified failure out of one attempt. */
export class FailedAttempt extends Error {
  readonly failure: Failure;
  constructor(failure: Failure) {
    super(failure.detail ?? failure.failure);
    this.failure = failure;
  }
}

/**
 * Classifies what one attempt threw: the caller's abort, the time limit, an HTTP
 * status (a refusal of `tools` when the request sent some), a network failure, or a
 * reply that is not a chat completion.
 */
export function classifyFailure(error: unknown, { callerSignal, timedOut, timeoutMs, sentTools }: { callerSignal: AbortSignal | undefined; timedOut: boolean; timeoutMs: number; sentTools: boolean }): Failure {
  if (error instanceof FailedAttempt) return error.failure;
  if (callerSignal?.aborted) return { failure: "aborted", retryable: false, cause: callerSignal.reason };
  if (timedOut || error instanceof APIConnectionTimeoutError) {
    return { failure: "timeout", retryable: true, detail: `no complete answer within ${timeoutMs} ms`, cause: error };
  }
  if (error instanceof APIError && typeof error.status === "number") {
    const { status } = error;
    const detail = serverMessage(error);
    if (sentTools && refusesTools(status, detail)) return { failure: "status", status, retryable: false, detail, cause: error, toolsRefused: true };
    return {
      failure: "status",
      status,
      retryable: status === 408 || status === 409 || status === 429 || status >= 500,
      detail,
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

/**
 * How servers say they take no tools (each seen in the wild):
 * Ollama "<model> does not support tools" (400); llama.cpp without `--jinja`
 * "tools param requires --jinja flag" and, before that, "Unsupported param: tools" (500);
 * vLLM without `--enable-auto-tool-choice` "\"auto\" tool choice requires
 * --enable-auto-tool-choice and --tool-call-parser to be set" (400).
 */
const TOOLS_REFUSAL =
  /does(?: not|n't) support (?:tools|tool calling|function calling)|tools? param(?:eter)?s? (?:requires|is not supported|are not supported|not supported)|unsupported param(?:eter)?:? ['"]?tools|tool choice requires|tools? (?:is|are) not supported/i;

/** Whether an HTTP error answering a request with tools refuses the tools (not retried, whatever the status). */
export function refusesTools(status: number, detail: string | undefined): boolean {
  return (status === 400 || status === 422 || status === 500 || status === 501) && detail !== undefined && TOOLS_REFUSAL.test(detail);
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

/** The text on one line, cut to 200 characters. */
export function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > DETAIL_CHARS ? `${line.slice(0, DETAIL_CHARS)}…` : line;
}
