import type { JsonValue } from "../tools/json-schema.ts";
import type { SessionStatus, SessionUsage } from "./session-result.ts";

/** Fields every event carries. */
export interface EventBase {
  /** The session that emitted the event (child sessions have their own id). */
  readonly sessionId: string;
  /** ISO time stamp. */
  readonly time: string;
  /** Milliseconds since the session started. */
  readonly elapsedMs: number;
  /** 0 for the root session, 1 for its children, and so on. */
  readonly depth: number;
}

/** Everything a session reports, in the order it happens. Also the line format of JSONL traces. */
export type SessionEvent = EventBase &
  (
    | { readonly type: "session_start"; readonly question: string; readonly model: string; readonly context: string; readonly tools: readonly string[]; readonly maxIterations: number; readonly parentSessionId?: string }
    | { readonly type: "model_call"; readonly iteration: number; readonly model: string; readonly messages: number; readonly promptTokens: number; readonly completionTokens: number; readonly usageEstimated: boolean; readonly durationMs: number; readonly finishReason: string; readonly text: string }
    | { readonly type: "code_block"; readonly iteration: number; readonly index: number; readonly language: string; readonly code: string; readonly unclosed: boolean }
    | { readonly type: "intercept_rejected"; readonly iteration: number; readonly index: number; readonly problems: readonly { readonly line: number; readonly column: number; readonly message: string }[] }
    | { readonly type: "tool_call"; readonly iteration: number; readonly index: number; readonly tool: string; readonly args: readonly unknown[]; readonly line: number; readonly injectedAs?: string; readonly resultChars?: number; readonly truncated?: boolean; readonly durationMs: number; readonly error?: string; readonly result?: JsonValue }
    | { readonly type: "sandbox_result"; readonly iteration: number; readonly index: number; readonly output: string; readonly outputTruncated: boolean; readonly error?: { readonly kind: string; readonly name: string; readonly message: string; readonly line?: number; readonly column?: number }; readonly final?: boolean; readonly reset: boolean; readonly durationMs: number }
    | { readonly type: "feedback"; readonly iteration: number; readonly text: string }
    | { readonly type: "final"; readonly iteration: number; readonly answer: JsonValue }
    | { readonly type: "error"; readonly iteration?: number; readonly message: string }
    | { readonly type: "session_end"; readonly status: SessionStatus; readonly iterations: number; readonly usage: SessionUsage; readonly durationMs: number; readonly answer?: JsonValue; readonly error?: string }
  );

/** The `type` field of a session event. */
export type SessionEventType = SessionEvent["type"];

/** Distributes `Omit` over a union, keeping each member's own fields. */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An event as the session builds it, before the common fields are stamped on. */
export type SessionEventInput = DistributiveOmit<SessionEvent, keyof EventBase>;
