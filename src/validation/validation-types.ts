import type { NavTools } from "../nav/create-nav-tools.ts";
import type { JsonValue } from "../core/json-value.ts";
import type { Tool } from "../tools/tool.ts";

/** When a validation round runs: after a reply, before a tool call runs, after it returned. */
export type ValidationPhase = "post_inference" | "pre_execution" | "post_execution";

/** The sessions a hook applies to: the root session (`main`) or `rlm_query` child sessions (`sub_session`). */
export type ValidationScope = "main" | "sub_session";

/** Every phase, in the order they happen in a turn. */
export const VALIDATION_PHASES: readonly ValidationPhase[] = ["post_inference", "pre_execution", "post_execution"];

/** Both scopes. */
export const VALIDATION_SCOPES: readonly ValidationScope[] = ["main", "sub_session"];

/**
 * What actually ran in the turn being checked: the ledger the second stage
 * checks claims against. The engine's `TurnLedger` has this shape; the
 * optional fields default to 0 / false / empty.
 */
export interface ValidationTurn {
  /** Tool calls made this turn and how they ended. */
  readonly toolCalls: readonly { readonly name: string; readonly arguments: unknown; readonly ok: boolean; readonly error?: string }[];
  /** Code blocks run this turn. */
  readonly blocksRun: number;
  /**
   * Output the model has been shown and may rely on: block outputs and tool
   * results of this turn, and the feedback the reply answers.
   */
  readonly outputSeen: readonly string[];
  /** `llm_query` sub-calls started this turn. */
  readonly subcallsStarted?: number;
  /** Sub-calls that failed this turn. */
  readonly subcallsFailed?: number;
  /** `rlm_query` child sessions started this turn. */
  readonly childSessionsStarted?: number;
  /** True when a budget refused something this turn. */
  readonly budgetRefused?: boolean;
}

/** One round's input to {@link Validator.check}. Only what the phase needs is required. */
export interface ValidationInput {
  readonly phase: ValidationPhase;
  readonly scope: ValidationScope;
  /** The model's reply, as it wrote it (code blocks and tool-call markup included). */
  readonly reply?: string;
  /** The answer the turn produced (a `FINAL` value, a `final_answer` call), when it produced one. */
  readonly answer?: JsonValue;
  /** What ran this turn. */
  readonly turn: ValidationTurn;
  /** The tool call being checked (`pre_execution`) or that just ran (`post_execution`). */
  readonly toolCall?: { readonly name: string; readonly arguments: unknown };
  /** The result of `toolCall` (`post_execution`). */
  readonly toolResult?: JsonValue;
  /** The tools the session offers, for `tool_schema_validation` (added to the validator's own). */
  readonly tools?: readonly Tool[];
  /** A child session's objective (its question), for `objective_completion`. */
  readonly objective?: string;
  /** The model's previous replies, newest last, for `repetition_loop`. */
  readonly recentReplies?: readonly string[];
  /** The repository the answer may cite (`ungrounded_citation`): nav tools, or a folder to open them on. */
  readonly repo?: NavTools | string;
  /**
   * Identifies the turn, so each hook corrects at most once per turn: a hook that
   * fires again in the same turn (and scope) is let through with a note. Without
   * it every round counts as a turn of its own.
   */
  readonly turnId?: string | number;
  /** Recorded in the interaction log. */
  readonly sessionId?: string;
  /** Run only these hooks (by name) of the phase; default every enabled one. A session runs the answer hooks when the answer comes. */
  readonly only?: readonly string[];
}

/** A confirmed violation. */
export interface Violation {
  readonly hook: string;
  /** What was found, in words the model can act on. */
  readonly reason: string;
  /** How it was detected: by a deterministic detector or by the validator model. */
  readonly detectedBy: "deterministic" | "model";
  readonly haltInference: boolean;
  readonly killOnDetect: boolean;
}

/** A detection the second stage found to be a false positive (or let through). */
export interface SuppressedViolation {
  readonly hook: string;
  /** Why it was not confirmed. */
  readonly reason: string;
}

/** What one validation round found. */
export interface ValidationResult {
  readonly phase: ValidationPhase;
  readonly scope: ValidationScope;
  /** The hooks this round ran (enabled, of the phase and scope, with their input there). */
  readonly checked: readonly string[];
  readonly violations: readonly Violation[];
  readonly suppressed: readonly SuppressedViolation[];
  /** The one correction message for the model, when something was confirmed that asks for one. */
  readonly correction?: string;
  /** True when a confirmed violation's hook has `haltInference`: nothing of the reply should run before the correction. */
  readonly halt: boolean;
  /** True when a confirmed violation's hook has `killOnDetect`: the reply should be dropped from the history. */
  readonly discard: boolean;
  /** The tool result with secrets masked, when `credential_redaction` changed it (`post_execution`). */
  readonly toolResult?: JsonValue;
  /** How the round went, when not as planned: a validator reply that could not be read, a hook skipped, a repeat let through. */
  readonly notes: readonly string[];
}
