import type { ExecutionResult } from "../../sandbox/index.ts";
import type { InterceptProblem } from "../intercept/intercept-block.ts";

/** The most characters of one error or problem message the model is shown; the rest is cut with a notice. */
export const MAX_FEEDBACK_MESSAGE_CHARS = 4_000;

/** What happened to one code block: refused, failed on a tool call, or run (with its result). */
export interface BlockReport {
  readonly index: number;
  readonly code: string;
  readonly unclosed: boolean;
  /** Why the interceptor refused the block (nothing of it ran). */
  readonly problems?: readonly InterceptProblem[];
  /** The tool calls intercepted and run before the block, in order. */
  readonly toolCalls: readonly { readonly source: string; readonly target: string; readonly chars: number; readonly truncated: boolean; readonly limitChars: number }[];
  /** Why a tool call failed the block before any of it ran. */
  readonly toolError?: string;
  /** What the sandbox reported for the rewritten block. */
  readonly result?: ExecutionResult;
}
