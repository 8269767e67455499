import type { ModelCallFailure } from "./model-call-error.ts";

/**
 * What a model client reports while one `complete` call is under way, through
 * `ModelRequest.onProgress`, so that a person can see a slow call for what it is:
 *
 * - `attempt`: a request is being sent (the first, or a retry), with the time it may take;
 * - `retry`: a request failed in a way worth retrying; the client waits `delayMs`, then tries again;
 * - `output`: streamed output so far (sent as the chunks arrive; the listener throttles).
 */
export type ModelProgress = ModelAttemptProgress | ModelRetryProgress | ModelOutputProgress;

/** A request is being sent. */
export interface ModelAttemptProgress {
  readonly kind: "attempt";
  /** 1 for the first request, 2 for the first retry, … */
  readonly attempt: number;
  /** The most requests this call may send (retries included). */
  readonly maxAttempts: number;
  /** How long this request may take, streaming included, when the client enforces a limit. */
  readonly timeoutMs?: number;
}

/** A request failed and will be retried after a wait. */
export interface ModelRetryProgress {
  readonly kind: "retry";
  /** The attempt that failed, from 1. */
  readonly attempt: number;
  readonly maxAttempts: number;
  /** What kind of failure it was. */
  readonly failure: ModelCallFailure;
  /** The HTTP status, for `failure: "status"`. */
  readonly status?: number;
  /** The wait before the next attempt (the server's Retry-After when it sent one). */
  readonly delayMs: number;
  /** The failure in one line, as it would be thrown if no retries were left. */
  readonly message: string;
}

/** Streamed output received so far in the current attempt. */
export interface ModelOutputProgress {
  readonly kind: "output";
  readonly attempt: number;
  /** Characters of reply text received. */
  readonly characters: number;
  /** Characters of reasoning received (`reasoning_content` / `reasoning` deltas); 0 when the server sends none. */
  readonly reasoningCharacters: number;
  /** Tokens so far, reply and reasoning, estimated from their length. */
  readonly estimatedTokens: number;
}

/** Calls `onProgress` and ignores what it throws: a listener's fault never fails a model call. */
export function reportProgress(onProgress: ((progress: ModelProgress) => void) | undefined, progress: ModelProgress): void {
  if (!onProgress) return;
  try {
    onProgress(progress);
  } catch {
    // A progress listener is only an observer.
  }
}
