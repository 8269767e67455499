export { raceAbort } from "../core/abort.ts";
export { subcallSignal, SubcallTimeoutError } from "./abort-race.ts";
export { BudgetTracker, DEFAULT_MAX_DEPTH, DEFAULT_MAX_MODEL_CALLS, type BudgetDecision, type BudgetHit, type BudgetLimitName, type BudgetOptions, type BudgetReport, type BudgetReservation, type BudgetTrackerOptions } from "./budget-tracker.ts";
export { createCallTree, DEFAULT_SUBCALL_TIMEOUT_MS, type CallTree, type CallTreeOptions, type ParentLink } from "./call-tree.ts";
export { createConcurrencyLimiter, DEFAULT_SUBCALL_CONCURRENCY, type ConcurrencyLimiter } from "./concurrency-limiter.ts";
export { DEFAULT_PRICES, findPrice, priceCall, validatePrices, type CallCost, type ModelPrice, type PriceTable } from "./price-table.ts";
export { SubcallCache, type CachedSubcall, type SubcallCacheKey } from "./subcall-cache.ts";
export { createSubcallFunctions, exposeSubcallFunctions, SUBCALL_FUNCTION_NAMES, type ChildSessionRequest, type LlmQueryOptions, type SubcallContext, type SubcallFunctions } from "./subcall-functions.ts";
export { ChildSessionGate, type ChildAdmission } from "./child-session-gate.ts";
export { BlockEndedError, PendingSubcalls, type PendingAdmission } from "./pending-subcalls.ts";
export {
  clampSubcallOptions,
  DEFAULT_MAX_CHILD_MEMORY_MB,
  DEFAULT_MAX_CHILD_SESSIONS,
  DEFAULT_MAX_PENDING_PROMPT_CHARS,
  DEFAULT_MAX_PENDING_SUBCALLS,
  DEFAULT_MAX_PROMPT_CHARS,
  DEFAULT_SUBCALL_GRACE_MS,
  MAX_SUBCALL_MAX_TOKENS,
  MAX_SUBCALL_TEMPERATURE,
  resolveSubcallLimits,
  type ResolvedSubcallLimits,
  type SubcallLimits,
} from "./subcall-limits.ts";
export { DEFAULT_SUBCALL_PROMPT_CHARS, renderSubcallSection, subcallPromptChars, SUBCALL_WINDOW_SHARE, type SubcallExampleInput, type SubcallPromptOptions } from "./subcall-prompt.ts";
export { UsageLedger, type LedgerEntry, type ModelUsageTotals, type TreeUsage, type UsageTotals } from "./usage-ledger.ts";
