import type { ExecutionResult } from "../../sandbox/index.ts";
import type { RewrittenBlock } from "../intercept/intercept-block.ts";
import { MAX_FEEDBACK_MESSAGE_CHARS } from "./block-report.ts";
import { clipWithNotice } from "../util/clip.ts";

/** Characters of an error's name (guest code chooses it) kept. */
const MAX_ERROR_NAME_CHARS = 200;

/**
 * Brings a sandbox result back to the block as the model wrote it: the error's
 * line and column are mapped through the interceptor's rewrite, and its name and
 * message (guest code controls both: a block may throw a 30 MB string) are cut,
 * the message to {@link MAX_FEEDBACK_MESSAGE_CHARS}, so neither events, traces nor
 * feedback carry more.
 */
export function boundResult(result: ExecutionResult, block: RewrittenBlock): ExecutionResult {
  const error = result.error;
  if (!error) return result;
  const position = error.line !== undefined ? block.toOriginal(error.line, error.column ?? 1) : undefined;
  return {
    ...result,
    error: {
      ...error,
      name: clipWithNotice(error.name, MAX_ERROR_NAME_CHARS),
      message: clipWithNotice(error.message, MAX_FEEDBACK_MESSAGE_CHARS),
      ...(position ? { line: position.line, ...(error.column !== undefined ? { column: position.column } : {}) } : {}),
    },
  };
}
