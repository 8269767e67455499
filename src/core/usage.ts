/**
 * Usage and budget types shared by every layer: what a session and its call tree
 * used, and which budget ran out. Types only.
 */

/** Token, call and cost totals for a part of the call tree. */
export interface UsageTotals {
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Model calls actually made (cache hits are not model calls). */
  readonly modelCalls: number;
  /** Dollars, from the price table; models without a price add 0. */
  readonly costUsd: number;
}

/** Usage of one model within a tree. */
export interface ModelUsageTotals extends UsageTotals {
  /** False when this model has no price, so its `costUsd` is 0 whatever it really cost. */
  readonly priced: boolean;
}

/** Usage of a session and everything under it: totals plus breakdowns. */
export interface TreeUsage extends UsageTotals {
  /** Totals by call depth: `"0"` is the root session's own turns, `"1"` its sub-calls and child sessions' turns, and so on. */
  readonly byDepth: Readonly<Record<string, UsageTotals>>;
  /** Totals by model id. */
  readonly byModel: Readonly<Record<string, ModelUsageTotals>>;
  /** Models that were used but have no price (counted as costing 0). Empty when every model had one. */
  readonly unpricedModels: readonly string[];
  /**
   * False when a model used has no price (`unpricedModels`): `costUsd` then counts only
   * the priced models, and the true cost is unknown (a local model's, say).
   */
  readonly costKnown: boolean;
  /** True when the token counts of at least one call were estimated from text length, because the server reported none. */
  readonly estimated: boolean;
}

/** A limit that can run out. */
export type BudgetLimitName = "maxModelCalls" | "maxTokens" | "maxCostUsd" | "maxWallMs";

/** Which budget ran out, and by how much. */
export interface BudgetHit {
  readonly limit: BudgetLimitName;
  /** The limit as configured. */
  readonly limitValue: number;
  /** What was used when a call was refused (model calls, tokens, dollars or milliseconds). */
  readonly used: number;
  /** A sentence the model can read. */
  readonly message: string;
}
