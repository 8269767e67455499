import { SessionTimeout } from "../core/abort.ts";
import type { JsonValue } from "../core/json-value.ts";
import type { SessionResult, SessionStatus, SessionUsage } from "../core/session-result.ts";
import type { EngineSession } from "./engine-session.ts";

/**
 * Ends a session: its result and the `session_end` event. Once a budget ran out, a
 * session that ends normally (even with an answer) says so: status `budget_exceeded`,
 * with the budget that ran out.
 */
export function finishSession(session: EngineSession, finishedAs: SessionStatus, extra: { answer?: JsonValue; error?: string } = {}): SessionResult {
  const hit = session.tree.tracker.exhausted;
  const status: SessionStatus = hit && (finishedAs === "final" || finishedAs === "max_iterations" || finishedAs === "budget_exceeded") ? "budget_exceeded" : finishedAs;
  const budgetField = status === "budget_exceeded" && hit ? { budget: hit } : {};
  const error = status === "budget_exceeded" && hit && !("answer" in extra) ? hit.message : extra.error;
  const usage: SessionUsage = session.ledger.snapshot();
  const answer = "answer" in extra ? { answer: extra.answer } : {};
  const result: SessionResult = { status, ...answer, iterations: session.iterations, usage, sessionId: session.sessionId, ...(error ? { error } : {}), ...budgetField, durationMs: session.now() - session.started };
  session.emit({ type: "session_end", status, iterations: session.iterations, usage: result.usage, durationMs: Math.round(result.durationMs), ...answer, ...(error ? { error } : {}), ...budgetField });
  return result;
}

/** Ends a session whose signal aborted: `timeout` when its time ran out, else `error` (cancelled). */
export function finishAborted(session: EngineSession, reason: unknown): SessionResult {
  if (reason instanceof SessionTimeout) return finishSession(session, "timeout", { error: reason.message });
  const message = `session cancelled${reason instanceof Error ? `: ${reason.message}` : ""}`;
  session.emit({ type: "error", iteration: session.iterations, message });
  return finishSession(session, "error", { error: message });
}
