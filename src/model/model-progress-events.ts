import type { ModelProgress } from "./model-progress.ts";
import type { SessionEventInput } from "../core/events.ts";

/** Streamed-output events of one model call are at most this frequent: two a second. */
export const MODEL_PROGRESS_INTERVAL_MS = 500;

/** Inputs of {@link relayModelProgress}. */
export interface ModelProgressRelayOptions {
  readonly emit: (event: SessionEventInput) => void;
  /** The turn the call belongs to. */
  readonly iteration: number;
  /** The model's id, stamped on each event. */
  readonly model: string;
  readonly now: () => number;
  /** Least time between two `model_progress` events. Default {@link MODEL_PROGRESS_INTERVAL_MS}. */
  readonly intervalMs?: number;
  /** Stamped on each event when the call serves an `llm_query` sub-call. */
  readonly subcallId?: string;
}

/**
 * Turns a model call's progress reports into session events: `model_request` for
 * each request sent, `model_retry` for each retry, and `model_progress` for
 * streamed output — the first chunk of each attempt at once, then at most one
 * event per `intervalMs`, so a long reply does not flood a trace (the
 * `model_call` event that follows carries the final counts).
 */
export function relayModelProgress({ emit: emitEvent, iteration, model, now, intervalMs = MODEL_PROGRESS_INTERVAL_MS, subcallId }: ModelProgressRelayOptions): (progress: ModelProgress) => void {
  const emit = subcallId === undefined ? emitEvent : (event: SessionEventInput) => emitEvent({ ...event, subcallId } as SessionEventInput);
  let lastOutput = Number.NEGATIVE_INFINITY;
  return (progress) => {
    switch (progress.kind) {
      case "attempt":
        lastOutput = Number.NEGATIVE_INFINITY;
        emit({ type: "model_request", iteration, model, attempt: progress.attempt, maxAttempts: progress.maxAttempts, ...(progress.timeoutMs !== undefined ? { timeoutMs: progress.timeoutMs } : {}) });
        return;
      case "retry":
        emit({ type: "model_retry", iteration, model, attempt: progress.attempt, maxAttempts: progress.maxAttempts, failure: progress.failure, ...(progress.status !== undefined ? { status: progress.status } : {}), delayMs: progress.delayMs, message: progress.message });
        return;
      case "output": {
        const time = now();
        if (time - lastOutput < intervalMs) return;
        lastOutput = time;
        emit({ type: "model_progress", iteration, model, attempt: progress.attempt, characters: progress.characters, reasoningCharacters: progress.reasoningCharacters, estimatedTokens: progress.estimatedTokens });
        return;
      }
    }
  };
}
