import type { BudgetHit, TreeUsage } from "./usage.ts";
import type { JsonValue } from "./json-value.ts";

/**
 * How a session ended: `final` (an executed FINAL), a limit (`max_iterations`,
 * `timeout`, `budget_exceeded`), `no_code` (the model kept replying without runnable
 * code after every nudge), or `error`.
 */
export type SessionStatus = "final" | "max_iterations" | "timeout" | "error" | "budget_exceeded" | "no_code";

/**
 * Token, call and cost totals of a session and everything under it (its
 * `llm_query` calls and child sessions), with breakdowns by depth and by model.
 */
export type SessionUsage = TreeUsage;

/** What `runSession` resolves with. */
export interface SessionResult {
  /** `final` when the model executed FINAL; otherwise why it stopped. */
  readonly status: SessionStatus;
  /**
   * The executed FINAL value, when there is one (the empty string is a valid answer).
   * A session whose budget ran out keeps status `budget_exceeded` even when its
   * last turn answered: the answer is then here, made with less than the model asked for.
   */
  readonly answer?: JsonValue;
  /** Model turns taken. */
  readonly iterations: number;
  /** Tokens, model calls and cost of this session and its sub-calls and child sessions (`byDepth`, `byModel`). */
  readonly usage: SessionUsage;
  /** A random id, also stamped on every event. */
  readonly sessionId: string;
  /** What went wrong, for `error`, `timeout` and `no_code`. */
  readonly error?: string;
  /** Which budget ran out, for status `budget_exceeded`. */
  readonly budget?: BudgetHit;
  /** Wall time of the whole session. */
  readonly durationMs: number;
}
