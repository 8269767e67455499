import { InvalidOptionsError } from "../core/errors/invalid-options-error.ts";

/** Sub-calls (`llm_query` prompts and `rlm_query` children) one session may have started and not yet seen settle. */
export const DEFAULT_MAX_PENDING_SUBCALLS = 1_000;
/** Characters one session may have pending at once: all its unsettled `llm_query` prompts and `rlm_query` questions and values (as JSON). */
export const DEFAULT_MAX_PENDING_PROMPT_CHARS = 64_000_000;
/** Characters of one `llm_query` prompt or `rlm_query` question (a child's value is bounded by the pending and child-memory limits). */
export const DEFAULT_MAX_PROMPT_CHARS = 1_000_000;
/** How long sub-calls a block started without awaiting them may go on after the block ended. */
export const DEFAULT_SUBCALL_GRACE_MS = 2_000;
/** Child sessions (`rlm_query`) running at once at each depth of a call tree. */
export const DEFAULT_MAX_CHILD_SESSIONS = 4;
/** Megabytes the child sessions running at once at each depth may claim: each claims its sandbox's memory limit plus its input. */
export const DEFAULT_MAX_CHILD_MEMORY_MB = 1_024;
/** `maxTokens` a sub-call may ask for; larger values are lowered to it. */
export const MAX_SUBCALL_MAX_TOKENS = 32_768;
/** `temperature` a sub-call may ask for; larger values are lowered to it. */
export const MAX_SUBCALL_TEMPERATURE = 2;

/** Bounds on the sub-calls of a call tree. Every field has a default; see the `DEFAULT_*` constants. */
export interface SubcallLimits {
  /** Sub-calls one session may have pending; more fail at once with an `[llm_query refused: …]` string. Default 1,000. */
  readonly maxPending?: number;
  /** Characters one session may have pending at once (prompts, questions, values as JSON). Default 64,000,000. */
  readonly maxPendingPromptChars?: number;
  /** Characters of one `llm_query` prompt or `rlm_query` question. Default 1,000,000. */
  readonly maxPromptChars?: number;
  /** Milliseconds that sub-calls a block did not await may outlive it; then they end with an error string. Default 2,000. */
  readonly graceMs?: number;
  /** Child sessions running at once at each depth; more wait their turn. Default 4. */
  readonly maxChildSessions?: number;
  /** Megabytes the running children at each depth may claim (sandbox memory limit plus input); a child that cannot fit waits, one that could never fit is refused. Default 1,024. */
  readonly maxChildMemoryMb?: number;
}

/** {@link SubcallLimits} with every default filled in. */
export type ResolvedSubcallLimits = { readonly [K in keyof SubcallLimits]-?: number };

/** Fills in defaults and checks each limit. Throws `InvalidOptionsError` for a limit that is not a positive number. */
export function resolveSubcallLimits(limits: SubcallLimits = {}): ResolvedSubcallLimits {
  const resolved = {
    maxPending: limits.maxPending ?? DEFAULT_MAX_PENDING_SUBCALLS,
    maxPendingPromptChars: limits.maxPendingPromptChars ?? DEFAULT_MAX_PENDING_PROMPT_CHARS,
    maxPromptChars: limits.maxPromptChars ?? DEFAULT_MAX_PROMPT_CHARS,
    graceMs: limits.graceMs ?? DEFAULT_SUBCALL_GRACE_MS,
    maxChildSessions: limits.maxChildSessions ?? DEFAULT_MAX_CHILD_SESSIONS,
    maxChildMemoryMb: limits.maxChildMemoryMb ?? DEFAULT_MAX_CHILD_MEMORY_MB,
  };
  for (const [name, value] of Object.entries(resolved)) {
    const floor = name === "graceMs" ? 0 : 1;
    if (typeof value !== "number" || Number.isNaN(value) || value < floor) throw new InvalidOptionsError({ option: `subcallLimits.${name}`, message: `subcallLimits.${name} must be a number of at least ${floor}, got ${JSON.stringify(value)}.` });
  }
  return resolved;
}

/**
 * Lowers sub-call options into a range every server accepts: `maxTokens` to at
 * most {@link MAX_SUBCALL_MAX_TOKENS}, `temperature` to at most
 * {@link MAX_SUBCALL_TEMPERATURE}. The caller has checked their types.
 */
export function clampSubcallOptions<T extends { readonly maxTokens?: number; readonly temperature?: number }>(options: T): T {
  return {
    ...options,
    ...(options.maxTokens !== undefined ? { maxTokens: Math.min(options.maxTokens, MAX_SUBCALL_MAX_TOKENS) } : {}),
    ...(options.temperature !== undefined ? { temperature: Math.min(options.temperature, MAX_SUBCALL_TEMPERATURE) } : {}),
  };
}
