import type { TokenUsage } from "../model/model-client.ts";

/** What one model costs, in US dollars per million tokens. */
export interface ModelPrice {
  /** Dollars per million prompt (input) tokens. */
  readonly inputPerMillion: number;
  /** Dollars per million completion (output) tokens. */
  readonly outputPerMillion: number;
}

/** Prices by model id. Keys match `ModelClient.modelId` (or the model name the server reports). */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * List prices of a few widely used hosted models, per million tokens. They change:
 * pass `prices` to `runSession` to correct or extend them. Local models are not
 * listed and cost 0.
 */
export const DEFAULT_PRICES: PriceTable = Object.freeze({
  "gpt-4o": { inputPerMillion: 2.5, outputPerMillion: 10 },
  "gpt-4o-mini": { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  "gpt-4.1": { inputPerMillion: 2, outputPerMillion: 8 },
  "gpt-4.1-mini": { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  "gpt-4.1-nano": { inputPerMillion: 0.1, outputPerMillion: 0.4 },
});

/** The cost of one call, and whether the model had a price at all. */
export interface CallCost {
  /** Dollars; 0 when the model has no price. */
  readonly costUsd: number;
  /** False when the model is in no price table: its cost was counted as 0. */
  readonly priced: boolean;
}

/**
 * Looks a model up in `prices` (then in {@link DEFAULT_PRICES}): by its exact id,
 * then by the part after the last `/` (so `openai/gpt-4o` finds `gpt-4o`).
 *
 * @example findPrice("openai/gpt-4o-mini", {}) // { inputPerMillion: 0.15, outputPerMillion: 0.6 }
 */
export function findPrice(model: string, prices: PriceTable = {}): ModelPrice | undefined {
  const short = model.slice(model.lastIndexOf("/") + 1);
  for (const table of [prices, DEFAULT_PRICES]) {
    const price = Object.hasOwn(table, model) ? table[model] : Object.hasOwn(table, short) ? table[short] : undefined;
    if (price) return price;
  }
  return undefined;
}

/** Prices one call's usage. Unknown models cost 0 and come back with `priced: false`. */
export function priceCall(model: string, usage: TokenUsage, prices: PriceTable = {}): CallCost {
  const price = findPrice(model, prices);
  if (!price) return { costUsd: 0, priced: false };
  return { costUsd: (usage.promptTokens * price.inputPerMillion + usage.completionTokens * price.outputPerMillion) / 1_000_000, priced: true };
}

/** Checks a price table given by a caller; throws a `TypeError` naming the bad entry. */
export function validatePrices(prices: PriceTable): void {
  for (const [model, price] of Object.entries(prices)) {
    for (const field of ["inputPerMillion", "outputPerMillion"] as const) {
      const value = price?.[field];
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
        throw new TypeError(`prices['${model}'].${field} must be a non-negative number of dollars per million tokens, got ${JSON.stringify(value)}.`);
      }
    }
  }
}
