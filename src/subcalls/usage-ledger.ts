import type { TokenUsage } from "../model/model-client.ts";
import type { ModelUsageTotals, TreeUsage, UsageTotals } from "../core/usage.ts";

export type { ModelUsageTotals, TreeUsage, UsageTotals };

/** One model call as the ledger records it. */
export interface LedgerEntry {
  readonly depth: number;
  readonly model: string;
  readonly usage: TokenUsage;
  readonly costUsd: number;
  readonly priced: boolean;
  /** True when `usage` was estimated from text length (the server reported none). */
  readonly estimated?: boolean;
}

interface MutableTotals {
  promptTokens: number;
  completionTokens: number;
  modelCalls: number;
  costUsd: number;
}

const zero = (): MutableTotals => ({ promptTokens: 0, completionTokens: 0, modelCalls: 0, costUsd: 0 });

function addTo(totals: MutableTotals, entry: LedgerEntry): void {
  totals.promptTokens += entry.usage.promptTokens;
  totals.completionTokens += entry.usage.completionTokens;
  totals.modelCalls += 1;
  totals.costUsd += entry.costUsd;
}

/**
 * Counts usage for one session and, through its parent links, for every session
 * above it: recording a call in a child ledger also counts it in the parent's, so
 * each session's ledger holds the totals of its own subtree.
 *
 * @example
 * const root = new UsageLedger();
 * const child = root.child();
 * child.record({ depth: 1, model: "m", usage: { promptTokens: 10, completionTokens: 2 }, costUsd: 0, priced: false });
 * root.snapshot().promptTokens; // 10
 */
export class UsageLedger {
  readonly #parent: UsageLedger | undefined;
  readonly #totals = zero();
  readonly #byDepth = new Map<number, MutableTotals>();
  readonly #byModel = new Map<string, MutableTotals & { priced: boolean }>();
  #estimated = false;

  constructor(parent?: UsageLedger) {
    this.#parent = parent;
  }

  /** A ledger for a child session whose calls also count here. */
  child(): UsageLedger {
    return new UsageLedger(this);
  }

  /** Counts one model call here and in every ancestor. */
  record(entry: LedgerEntry): void {
    addTo(this.#totals, entry);
    let depth = this.#byDepth.get(entry.depth);
    if (!depth) this.#byDepth.set(entry.depth, (depth = zero()));
    addTo(depth, entry);
    let model = this.#byModel.get(entry.model);
    if (!model) this.#byModel.set(entry.model, (model = { ...zero(), priced: entry.priced }));
    addTo(model, entry);
    model.priced &&= entry.priced;
    if (entry.estimated === true) this.#estimated = true;
    this.#parent?.record(entry);
  }

  /** The totals so far. */
  get totals(): UsageTotals {
    return { ...this.#totals };
  }

  /** The totals and breakdowns so far, as plain JSON-ready objects. */
  snapshot(): TreeUsage {
    const byDepth: Record<string, UsageTotals> = {};
    for (const depth of [...this.#byDepth.keys()].sort((a, b) => a - b)) byDepth[String(depth)] = { ...this.#byDepth.get(depth)! };
    const byModel: Record<string, ModelUsageTotals> = {};
    for (const [model, totals] of this.#byModel) byModel[model] = { ...totals };
    const unpricedModels = [...this.#byModel].filter(([, totals]) => !totals.priced).map(([model]) => model);
    return { ...this.#totals, byDepth, byModel, unpricedModels, costKnown: unpricedModels.length === 0, estimated: this.#estimated };
  }
}
