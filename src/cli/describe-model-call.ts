import type { ModelProgressFields, ModelRequestFields, ModelRetryFields } from "../core/events.ts";
import { CHARS_PER_TOKEN } from "../model/estimate-tokens.ts";
import { formatSeconds } from "./format-usage.ts";

/** The flag that changes the time one model request may take; named wherever a person waits on one. */
export const REQUEST_TIMEOUT_FLAG = "--request-timeout-ms";

/**
 * Waiting on a model request, e.g. `waiting for the model 4.2 s (time-out 120 s, --request-timeout-ms)`
 * or `waiting for the model, attempt 2/4 (time-out 120 s, --request-timeout-ms)`.
 * `waitedMs` is how long it has waited so far, when known.
 */
export function describeModelRequest(event: Omit<ModelRequestFields, "type" | "iteration">, waitedMs?: number): string {
  const attempt = event.attempt > 1 ? `, attempt ${event.attempt}/${event.maxAttempts}` : "";
  const waited = waitedMs !== undefined && waitedMs >= 1000 ? ` ${formatSeconds(waitedMs)}` : "";
  const timeout = event.timeoutMs !== undefined ? ` (time-out ${formatSeconds(event.timeoutMs)}, ${REQUEST_TIMEOUT_FLAG})` : "";
  return `waiting for the model${attempt}${waited}${timeout}`;
}

/**
 * A retry of a model request, e.g. `retry 2/5 after 503, waiting 15 s`.
 * `remainingMs` replaces the whole wait when the caller counts down.
 */
export function describeModelRetry(event: Omit<ModelRetryFields, "type" | "iteration">, remainingMs?: number): string {
  const reason = event.status !== undefined ? String(event.status) : event.failure === "timeout" ? `the time-out (${REQUEST_TIMEOUT_FLAG})` : event.failure === "connection" ? "a connection failure" : event.failure;
  return `retry ${event.attempt}/${event.maxAttempts - 1} after ${reason}, waiting ${formatSeconds(remainingMs ?? event.delayMs)}`;
}

/** Streamed output so far, e.g. `model writing: ~1,234 tokens so far (~800 reasoning)`. */
export function describeModelOutput(event: Omit<ModelProgressFields, "type" | "iteration">): string {
  const reasoningTokens = Math.ceil(event.reasoningCharacters / CHARS_PER_TOKEN);
  return `model writing: ~${event.estimatedTokens.toLocaleString("en-US")} tokens so far${reasoningTokens > 0 ? ` (~${reasoningTokens.toLocaleString("en-US")} reasoning)` : ""}`;
}
