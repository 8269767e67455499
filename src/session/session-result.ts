import type { JsonValue } from "../tools/json-schema.ts";

/** How a session ended. */
export type SessionStatus = "final" | "max_iterations" | "timeout" | "error" | "budget_exceeded";

/** Token and call counts. */
export interface SessionUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly modelCalls: number;
}

/** What `runSession` resolves with. */
export interface SessionResult {
  /** `final` when the model executed FINAL; otherwise why it stopped. */
  readonly status: SessionStatus;
  /** The executed FINAL value, when there is one (the empty string is a valid answer). */
  readonly answer?: JsonValue;
  /** Model turns taken. */
  readonly iterations: number;
  /** Tokens and model calls of this session. */
  readonly usage: SessionUsage;
  /** A random id, also stamped on every event. */
  readonly sessionId: string;
  /** What went wrong, for `error` and `timeout`. */
  readonly error?: string;
  /** Wall time of the whole session. */
  readonly durationMs: number;
}
