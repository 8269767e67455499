import { InvalidOptionsError } from "../core/errors/invalid-options-error.ts";
import type { BudgetHit, BudgetLimitName } from "../core/usage.ts";
import type { PriceTable } from "./price-table.ts";
import { findPrice } from "./price-table.ts";
import type { UsageLedger, UsageTotals } from "./usage-ledger.ts";

export type { BudgetHit, BudgetLimitName };

/** Default deepest child session: the root (0) may start children (1); their `rlm_query` degrades to `llm_query`. */
export const DEFAULT_MAX_DEPTH = 1;

/** Default number of model calls in a whole call tree (root turns, sub-calls, child sessions' turns); pass `maxModelCalls: Infinity` to lift it. */
export const DEFAULT_MAX_MODEL_CALLS = 500;

/** Limits over a whole call tree: the root session, its sub-calls and its child sessions. Every limit but `maxModelCalls` (500) and `maxDepth` (1) is off unless given. */
export interface BudgetOptions {
  /** Model calls in the whole tree (root turns, `llm_query` calls, child sessions' turns). Cache hits don't count. Default 500; `Infinity` lifts it. */
  readonly maxModelCalls?: number;
  /** Prompt plus completion tokens in the whole tree. */
  readonly maxTokens?: number;
  /** Dollars in the whole tree, priced with the price table (models without a price cost 0). */
  readonly maxCostUsd?: number;
  /** Wall time since the root session started; no model call starts after it, and sub-calls are cut at it. */
  readonly maxWallMs?: number;
  /** Deepest child session. At this depth `rlm_query` degrades to `llm_query`. Not a budget that runs out. Default 1. */
  readonly maxDepth?: number;
}

/** What `budget()` returns in the sandbox: what is used and left; `null` means unlimited. */
export interface BudgetReport {
  readonly used: { readonly modelCalls: number; readonly tokens: number; readonly costUsd: number; readonly wallMs: number };
  readonly left: { readonly modelCalls: number | null; readonly tokens: number | null; readonly costUsd: number | null; readonly wallMs: number | null };
  /** The calling session's depth (0 for the root). */
  readonly depth: number;
  readonly maxDepth: number;
  /** The budget that ran out, or null. Once one has, every further model call is refused. */
  readonly exhausted: BudgetLimitName | null;
  /** Models used so far that have no price (their cost is counted as 0). */
  readonly unpricedModels: readonly string[];
}

/** A call allowed to start: settle it with `finish` once it is done. */
export interface BudgetReservation {
  /** Ends the reservation (the caller records the real usage in a ledger). */
  finish(): void;
}

/** What a request to start a call returns. */
export type BudgetDecision = { readonly ok: true; readonly reservation: BudgetReservation } | { readonly ok: false; readonly hit: BudgetHit };

/** Options of a {@link BudgetTracker}. */
export interface BudgetTrackerOptions {
  readonly budget?: BudgetOptions;
  readonly prices?: PriceTable;
  /** The ledger of the root session: its totals are the tree's. */
  readonly ledger: UsageLedger;
  /** Clock in milliseconds. Default `performance.now`. */
  readonly now?: () => number;
}

/**
 * Enforces a {@link BudgetOptions} over a call tree. Before each model call the
 * caller asks {@link BudgetTracker.reserve} with an estimate of the prompt; the call
 * is refused when it would take the tree over a limit, counting calls still in
 * flight. The first refusal is sticky: from then on every call is refused with
 * the same {@link BudgetHit}, except a `force`d one (the root's last turn).
 */
export class BudgetTracker {
  readonly limits: BudgetOptions;
  readonly maxDepth: number;
  readonly #prices: PriceTable;
  readonly #ledger: UsageLedger;
  readonly #now: () => number;
  readonly #started: number;
  #hit: BudgetHit | undefined;
  #inFlight = { calls: 0, tokens: 0, costUsd: 0 };

  constructor({ budget = {}, prices = {}, ledger, now = () => performance.now() }: BudgetTrackerOptions) {
    for (const name of ["maxModelCalls", "maxTokens", "maxCostUsd", "maxWallMs", "maxDepth"] as const) {
      const value = budget[name];
      if (value !== undefined && (typeof value !== "number" || Number.isNaN(value) || value < 0)) {
        throw new InvalidOptionsError({ option: `budget.${name}`, message: `budget.${name} must be a non-negative number, got ${JSON.stringify(value)}.` });
      }
    }
    if (budget.maxDepth !== undefined && !Number.isInteger(budget.maxDepth)) throw new InvalidOptionsError({ option: "budget.maxDepth", message: `budget.maxDepth must be an integer, got ${budget.maxDepth}.` });
    this.limits = { maxModelCalls: DEFAULT_MAX_MODEL_CALLS, ...budget };
    this.maxDepth = budget.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.#prices = prices;
    this.#ledger = ledger;
    this.#now = now;
    this.#started = now();
  }

  /** The budget that ran out, once one has. */
  get exhausted(): BudgetHit | undefined {
    return this.#hit;
  }

  /** Milliseconds until `maxWallMs`, or undefined without one. */
  remainingWallMs(): number | undefined {
    const { maxWallMs } = this.limits;
    return maxWallMs === undefined ? undefined : Math.max(0, maxWallMs - (this.#now() - this.#started));
  }

  /**
   * Asks to start one model call of `model` whose prompt is about `promptTokens`
   * long. `force` lets the call start whatever the budget says (it is still counted).
   */
  reserve({ model, promptTokens, force = false }: { readonly model: string; readonly promptTokens: number; readonly force?: boolean }): BudgetDecision {
    const price = findPrice(model, this.#prices);
    const costUsd = price ? (promptTokens * price.inputPerMillion) / 1_000_000 : 0;
    if (!force) {
      const hit = this.#hit ?? this.#check(promptTokens, costUsd);
      if (hit) {
        this.#hit = hit;
        return { ok: false, hit };
      }
    }
    const claim = { calls: 1, tokens: promptTokens, costUsd };
    this.#inFlight.calls += claim.calls;
    this.#inFlight.tokens += claim.tokens;
    this.#inFlight.costUsd += claim.costUsd;
    let done = false;
    return {
      ok: true,
      reservation: {
        finish: () => {
          if (done) return;
          done = true;
          this.#inFlight.calls -= claim.calls;
          this.#inFlight.tokens -= claim.tokens;
          this.#inFlight.costUsd -= claim.costUsd;
        },
      },
    };
  }

  /** Marks a budget as run out without a refused call (e.g. a sub-call cut at `maxWallMs`). The first hit wins. */
  markExhausted(limit: BudgetLimitName): BudgetHit {
    this.#hit ??= this.#describe(limit, this.#used(this.#ledger.totals)[limit], 0);
    return this.#hit;
  }

  /** What is used and left, for `budget()` in the sandbox. */
  report(depth: number): BudgetReport {
    const totals = this.#ledger.totals;
    const used = this.#used(totals);
    const left = (limit: BudgetLimitName): number | null => {
      const value = this.limits[limit];
      return value === undefined || value === Infinity ? null : Math.max(0, value - used[limit]);
    };
    return {
      used: { modelCalls: used.maxModelCalls, tokens: used.maxTokens, costUsd: used.maxCostUsd, wallMs: Math.round(used.maxWallMs) },
      left: { modelCalls: left("maxModelCalls"), tokens: left("maxTokens"), costUsd: left("maxCostUsd"), wallMs: left("maxWallMs") === null ? null : Math.round(left("maxWallMs")!) },
      depth,
      maxDepth: this.maxDepth,
      exhausted: this.#hit?.limit ?? null,
      unpricedModels: this.#ledger.snapshot().unpricedModels,
    };
  }

  #used(totals: UsageTotals): Record<BudgetLimitName, number> {
    return {
      maxModelCalls: totals.modelCalls,
      maxTokens: totals.promptTokens + totals.completionTokens,
      maxCostUsd: totals.costUsd,
      maxWallMs: this.#now() - this.#started,
    };
  }

  #check(promptTokens: number, costUsd: number): BudgetHit | undefined {
    const { maxModelCalls, maxTokens, maxCostUsd, maxWallMs } = this.limits;
    const used = this.#used(this.#ledger.totals);
    const flying = this.#inFlight;
    if (maxWallMs !== undefined && used.maxWallMs >= maxWallMs) return this.#describe("maxWallMs", used.maxWallMs, 0);
    if (maxModelCalls !== undefined && used.maxModelCalls + flying.calls + 1 > maxModelCalls) return this.#describe("maxModelCalls", used.maxModelCalls, flying.calls + 1);
    if (maxTokens !== undefined && used.maxTokens + flying.tokens + promptTokens > maxTokens) return this.#describe("maxTokens", used.maxTokens, flying.tokens + promptTokens);
    if (maxCostUsd !== undefined && used.maxCostUsd + flying.costUsd + costUsd > maxCostUsd) return this.#describe("maxCostUsd", used.maxCostUsd, flying.costUsd + costUsd);
    return undefined;
  }

  #describe(limit: BudgetLimitName, used: number, wanted: number): BudgetHit {
    const limitValue = this.limits[limit]!;
    const units: Record<BudgetLimitName, (value: number) => string> = {
      maxModelCalls: (value) => `${Math.round(value).toLocaleString("en-US")} model calls`,
      maxTokens: (value) => `${Math.round(value).toLocaleString("en-US")} tokens`,
      maxCostUsd: (value) => `$${value.toFixed(4)}`,
      maxWallMs: (value) => `${Math.round(value).toLocaleString("en-US")} ms`,
    };
    const need = wanted > 0 ? ` and this call needs about ${units[limit](wanted)} more (counting calls in flight)` : "";
    const message = `budget exceeded (${limit}): the limit is ${units[limit](limitValue)}, ${units[limit](used)} used${need}. No more model calls can be made; answer with what you have.`;
    return { limit, limitValue, used: limit === "maxWallMs" ? Math.round(used) : used, message };
  }
}
