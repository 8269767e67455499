/**
 * A duration for a person: whole seconds from 10 s up, one decimal below
 * (`0.4 s`, `1 s`, `2.5 s`, `15 s`, `120 s`).
 */
export function formatSeconds(milliseconds: number): string {
  const seconds = Math.max(0, milliseconds) / 1000;
  return seconds >= 10 ? `${Math.round(seconds)} s` : `${seconds.toFixed(1).replace(/\.0$/, "")} s`;
}

/** A token count, marked `~` when any part of it was estimated from text length: `12,345 tokens`, `~12,345 tokens`. */
export function formatTokens(tokens: number, estimated: boolean): string {
  return `${estimated ? "~" : ""}${tokens.toLocaleString("en-US")} tokens`;
}

/**
 * A cost for a person. `known` is false when a model used has no price: nothing
 * priced reads `cost unknown` (never `$0.0000` for a local model), some priced
 * reads `≥ $0.0123 (some models unpriced)`.
 */
export function formatCost(costUsd: number, known: boolean): string {
  if (known) return `$${costUsd.toFixed(4)}`;
  return costUsd > 0 ? `≥ $${costUsd.toFixed(4)} (some models unpriced)` : "cost unknown";
}
