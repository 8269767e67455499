import type { JsonValue } from "./json-value.ts";
import type { BudgetHit, BudgetLimitName } from "./usage.ts";
import type { SessionStatus, SessionUsage } from "./session-result.ts";

/** What one compaction did, for the `history_compacted` event. */
export interface Compaction {
  /** Turns now replaced by records, in all. */
  readonly compactedTurns: number;
  /** Turns compacted by this step. */
  readonly newlyCompacted: number;
  /** Estimated prompt tokens before and after. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** The prompt budget in tokens. */
  readonly budgetTokens: number;
  /** Messages of the last turns that had to be cut to fit. */
  readonly clippedMessages: number;
  /** Records of compacted turns dropped to fit. */
  readonly droppedRecords: number;
}

/** A tool call as a `model_call` event records it (the reply's `toolCalls`, provider extras included, so a replay can send them back). */
export interface RecordedToolCall {
  readonly id: string;
  readonly name: string;
  /** The arguments' raw text, as the model wrote them. */
  readonly arguments: string;
  readonly extra?: Readonly<Record<string, JsonValue>>;
}

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
  /** The session that started this one with `rlm_query`; absent for the root. */
  readonly parentSessionId?: string;
}

/** Everything a session reports, in the order it happens. Also the line format of JSONL traces. */
export type SessionEvent = EventBase &
  (
    | { readonly type: "session_start"; readonly question: string; readonly model: string; readonly context: string; readonly tools: readonly string[]; readonly maxIterations: number; readonly parentSessionId?: string }
    | { readonly type: "protocol_degraded"; readonly iteration: number; readonly from: string; readonly to: string; readonly reason: string }
    | { readonly type: "model_call"; readonly iteration: number; readonly model: string; readonly messages: number; readonly promptTokens: number; readonly completionTokens: number; readonly usageEstimated: boolean; readonly durationMs: number; readonly finishReason: string; readonly text: string; readonly reasoning?: string; readonly toolCalls?: readonly RecordedToolCall[]; readonly costUsd?: number; readonly priced?: boolean }
    | ModelRequestFields
    | ModelRetryFields
    | ModelProgressFields
    | { readonly type: "code_block"; readonly iteration: number; readonly index: number; readonly language: string; readonly code: string; readonly unclosed: boolean }
    | { readonly type: "intercept_rejected"; readonly iteration: number; readonly index: number; readonly problems: readonly { readonly line: number; readonly column: number; readonly message: string }[] }
    | { readonly type: "tool_call"; readonly iteration: number; /** The action's position in the reply (the block, or the tool-call action). */ readonly index: number; readonly tool: string; /** Positional arguments in a block; `[arguments]` for a tool-call action. */ readonly args: readonly unknown[]; /** The call's line in its block; 0 for a tool-call action. */ readonly line: number; /** The call's id, for a tool-call action. */ readonly callId?: string; readonly injectedAs?: string; readonly resultChars?: number; readonly truncated?: boolean; readonly durationMs: number; readonly error?: string; /** Set when the tool itself failed (threw, or returned a value that is not JSON); `error` then holds its real message. */ readonly hostFault?: boolean; readonly result?: JsonValue; /** The call as the model wrote it, when the fallback model rewrote it (`tool` and `args` are the rewrite). */ readonly rewrittenFrom?: string }
    | { readonly type: "sandbox_result"; readonly iteration: number; readonly index: number; readonly output: string; readonly outputTruncated: boolean; readonly error?: { readonly kind: string; readonly name: string; readonly message: string; readonly line?: number; readonly column?: number }; readonly final?: boolean; readonly reset: boolean; readonly durationMs: number }
    | { readonly type: "feedback"; readonly iteration: number; readonly text: string }
    | ({ readonly type: "history_compacted"; readonly iteration: number } & Compaction)
    | { readonly type: "final"; readonly iteration: number; readonly answer: JsonValue; readonly answerChars?: number; readonly answerTruncated?: boolean }
    | { readonly type: "error"; readonly iteration?: number; readonly message: string }
    | { readonly type: "session_end"; readonly status: SessionStatus; readonly iterations: number; readonly usage: SessionUsage; readonly durationMs: number; readonly answer?: JsonValue; readonly answerChars?: number; readonly answerTruncated?: boolean; readonly error?: string; readonly budget?: BudgetHit }
    | SubcallStartFields
    | SubcallEndFields
    | { readonly type: "budget_exceeded"; readonly iteration?: number; readonly limit: BudgetLimitName; readonly limitValue: number; readonly used: number; readonly message: string }
    | HookEventFields
    | ValidationEventFields
    | TranslationEventFields
    | BackgroundTaskEventFields
  );

/** A tool offered by description was translated (`nlTools`): what the translator made of the description. */
export interface TranslationEventFields {
  readonly type: "translation";
  readonly iteration: number;
  readonly tool: string;
  readonly description: string;
  readonly model: string;
  readonly status: "translated" | "clarify" | "failed";
  /** The summary of each translated call, in order. */
  readonly calls?: readonly string[];
  /** Elements of the translator's array left out. */
  readonly skipped?: number;
  readonly question?: string;
  readonly error?: string;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly costUsd: number;
  readonly durationMs: number;
}

/** A background task (`spawn_sub_session`) changed state; its child session's own events carry `childSessionId` as their `sessionId`. */
export interface BackgroundTaskEventFields {
  readonly type: "background_task";
  readonly iteration: number;
  readonly taskId: string;
  readonly state: "waiting" | "running" | "done" | "failed";
  readonly objective: string;
  readonly dependsOn: readonly string[];
  readonly answer?: JsonValue;
  readonly error?: string;
  readonly childSessionId?: string;
  readonly childStatus?: SessionStatus;
}

/** A point of the turn where session hooks run (see `SessionHook`). */
export type HookPoint = "after_reply" | "before_tool" | "after_tool" | "before_answer";

/** A hook vetoed, corrected, warned or discarded a reply at one point of a turn. */
export interface HookEventFields {
  readonly type: "hook";
  readonly iteration: number;
  readonly point: HookPoint;
  /** The `name` of the hook that acted. */
  readonly hook: string;
  readonly action: "veto" | "correct" | "warn" | "discard";
  /** The reason, correction or warning as the hook gave it. */
  readonly message: string;
}

/** One validation round of `runSession({ validation })` (what it found, what it let through, what it told the model). */
export interface ValidationEventFields {
  readonly type: "validation";
  /** The turn; absent for the validator's own problems. */
  readonly iteration?: number;
  /** The hook point it ran at; absent for the validator's own problems (a malformed custom-hook file), reported once at the start. */
  readonly point?: HookPoint;
  readonly phase?: "post_inference" | "pre_execution" | "post_execution";
  /** The hooks the round ran. */
  readonly checked?: readonly string[];
  readonly violations: readonly { readonly hook: string; readonly reason: string }[];
  readonly suppressed: readonly { readonly hook: string; readonly reason: string }[];
  /** A validator reply that could not be read, a hook skipped, a repeat let through, a custom-hook file not used. */
  readonly notes: readonly string[];
  readonly correction?: string;
}

/** A request to the model is being sent (the turn's first, or a retry), with the time it may take. */
export interface ModelRequestFields {
  readonly type: "model_request";
  readonly iteration: number;
  readonly model: string;
  /** 1 for the first request of the call, 2 for the first retry, … */
  readonly attempt: number;
  /** The most requests the call may send. */
  readonly maxAttempts: number;
  /** How long this request may take (the client's request time-out), when the client has one. */
  readonly timeoutMs?: number;
  /** The `llm_query` sub-call this request serves (see `subcall_start`); absent for the session's own turns. */
  readonly subcallId?: string;
}

/** A request to the model failed and will be retried after `delayMs`. */
export interface ModelRetryFields {
  readonly type: "model_retry";
  readonly iteration: number;
  readonly model: string;
  /** The attempt that failed, from 1. */
  readonly attempt: number;
  readonly maxAttempts: number;
  /** `status`, `timeout`, `connection`, … (see `ModelCallFailure`). */
  readonly failure: string;
  /** The HTTP status, when the server answered with one. */
  readonly status?: number;
  /** The wait before the next attempt (the server's Retry-After when it sent one). */
  readonly delayMs: number;
  /** The failure in one line. */
  readonly message: string;
  /** The `llm_query` sub-call this request serves (see `subcall_start`); absent for the session's own turns. */
  readonly subcallId?: string;
}

/** Streamed output received so far in a model call (at most two events a second per call). */
export interface ModelProgressFields {
  readonly type: "model_progress";
  readonly iteration: number;
  readonly model: string;
  readonly attempt: number;
  /** Characters of reply text so far. */
  readonly characters: number;
  /** Characters of reasoning so far (0 when the server sends none apart from the text). */
  readonly reasoningCharacters: number;
  /** Tokens so far, reply and reasoning, estimated from their length. */
  readonly estimatedTokens: number;
  /** The `llm_query` sub-call this request serves (see `subcall_start`); absent for the session's own turns. */
  readonly subcallId?: string;
}

/**
 * A sub-call starts: `llm_query` (one per prompt of `llm_query_batched`) or
 * `rlm_query` (`kind: "rlm"`, a child session whose own events follow with its
 * `sessionId`). `callDepth` is the depth the call counts at (the session's depth + 1).
 */
export interface SubcallStartFields {
  readonly type: "subcall_start";
  readonly iteration: number;
  readonly subcallId: string;
  readonly kind: "llm" | "rlm";
  readonly model: string;
  readonly callDepth: number;
  readonly promptChars: number;
  /** SHA-256 of an `llm_query` prompt (hex), so a replay can hand each prompt its recorded reply. */
  readonly promptSha256?: string;
  /** Position in an `llm_query_batched` call. */
  readonly batchIndex?: number;
  /** True for an `rlm_query` at the maximum depth, run as `llm_query`. */
  readonly degraded?: boolean;
}

/**
 * A sub-call ended. For `kind: "llm"` the tokens and cost are that one call's
 * (0 for cache hits and refusals); for `kind: "rlm"` they are the child session's
 * subtree totals, already counted in its own `model_call` and `subcall_end`
 * events, so sum `model_call` plus `llm` sub-calls to total a trace.
 */
export interface SubcallEndFields {
  readonly type: "subcall_end";
  readonly iteration: number;
  readonly subcallId: string;
  readonly kind: "llm" | "rlm";
  readonly model: string;
  readonly callDepth: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly costUsd: number;
  readonly durationMs: number;
  /** Position in an `llm_query_batched` call. */
  readonly batchIndex?: number;
  /** True when the reply came from the on-disk cache (no model call). */
  readonly cached: boolean;
  /** The budget that refused the call, when one did (no model call). */
  readonly refused?: BudgetLimitName;
  /** Why the call failed, when it did; the guest got an error string. */
  readonly error?: string;
  /** Length of the reply (or of the child's answer as JSON). */
  readonly responseChars?: number;
  /** The reply, when it is at most 20,000 characters. */
  readonly response?: JsonValue;
  /** The child session, for `kind: "rlm"`. */
  readonly childSessionId?: string;
  readonly childStatus?: SessionStatus;
}

/** The `type` field of a session event. */
export type SessionEventType = SessionEvent["type"];

/** Distributes `Omit` over a union, keeping each member's own fields. */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An event as the session builds it, before the common fields are stamped on. */
export type SessionEventInput = DistributiveOmit<SessionEvent, keyof EventBase>;
