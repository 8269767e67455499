import { randomUUID } from "node:crypto";
import type { SessionEvent } from "../core/events.ts";
import { BudgetTracker, type BudgetOptions } from "./budget-tracker.ts";
import { createConcurrencyLimiter, DEFAULT_SUBCALL_CONCURRENCY, type ConcurrencyLimiter } from "./concurrency-limiter.ts";
import { validatePrices, type PriceTable } from "./price-table.ts";
import { SubcallCache } from "./subcall-cache.ts";
import { ChildSessionGate } from "./child-session-gate.ts";
import { resolveSubcallLimits, type ResolvedSubcallLimits, type SubcallLimits } from "./subcall-limits.ts";
import { UsageLedger } from "./usage-ledger.ts";

/** Default time limit of one sub-call: one `llm_query` reply, or a whole child session. */
export const DEFAULT_SUBCALL_TIMEOUT_MS = 180_000;

/** State shared by every session of one call tree: budgets, prices, the concurrency limit, the cache and the event sink. */
export interface CallTree {
  readonly tracker: BudgetTracker;
  /** Bounds the `llm_query` calls in flight across the whole tree. */
  readonly limiter: ConcurrencyLimiter;
  readonly prices: PriceTable;
  readonly cache: SubcallCache | undefined;
  readonly subcallTimeoutMs: number;
  /** Bounds on pending sub-calls, prompt sizes and child sessions. */
  readonly limits: ResolvedSubcallLimits;
  /** The gate child sessions starting at `depth` pass (one per depth). */
  readonly childGate: (depth: number) => ChildSessionGate;
  /** The root session's ledger: the tree's totals. */
  readonly rootLedger: UsageLedger;
  /** Writes a finished event to the trace and `onEvent` (every session of the tree shares it). */
  readonly sink: (event: SessionEvent) => void;
  /** Ids of sub-calls, unique within the tree. */
  readonly nextSubcallId: () => string;
}

/** Options of {@link createCallTree}. */
export interface CallTreeOptions {
  readonly budget?: BudgetOptions;
  readonly prices?: PriceTable;
  readonly subcallConcurrency?: number;
  readonly subcallTimeoutMs?: number;
  readonly subcallCacheDir?: string;
  readonly subcallLimits?: SubcallLimits;
  readonly sink: (event: SessionEvent) => void;
  readonly now?: () => number;
  readonly generateId?: () => string;
}

/** Creates the shared state of a call tree (done by the root session). Throws `TypeError`/`RangeError` for invalid options. */
export function createCallTree({ budget, prices = {}, subcallConcurrency = DEFAULT_SUBCALL_CONCURRENCY, subcallTimeoutMs = DEFAULT_SUBCALL_TIMEOUT_MS, subcallCacheDir, subcallLimits, sink, now, generateId = randomUUID }: CallTreeOptions): CallTree {
  validatePrices(prices);
  const limits = resolveSubcallLimits(subcallLimits);
  const gates = new Map<number, ChildSessionGate>();
  if (!(subcallTimeoutMs > 0)) throw new RangeError(`subcallTimeoutMs must be a positive number of milliseconds, got ${subcallTimeoutMs}.`);
  const rootLedger = new UsageLedger();
  let counter = 0;
  return {
    tracker: new BudgetTracker({ budget, prices, ledger: rootLedger, ...(now ? { now } : {}) }),
    limiter: createConcurrencyLimiter(subcallConcurrency),
    prices,
    cache: subcallCacheDir ? new SubcallCache(subcallCacheDir) : undefined,
    subcallTimeoutMs,
    limits,
    childGate: (depth) => {
      let gate = gates.get(depth);
      if (!gate) gates.set(depth, (gate = new ChildSessionGate(limits.maxChildSessions, limits.maxChildMemoryMb)));
      return gate;
    },
    rootLedger,
    sink,
    nextSubcallId: () => `${generateId().slice(0, 8)}-${++counter}`,
  };
}

/** What a child session receives from the session that started it. Not part of the public API. */
export interface ParentLink {
  readonly tree: CallTree;
  /** The child's own ledger (a child of the parent's). */
  readonly ledger: UsageLedger;
  readonly depth: number;
  readonly parentSessionId: string;
}
