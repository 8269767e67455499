import { editDistance } from "../util/edit-distance.ts";
import { ownName } from "./symbol-names.ts";

/**
 * Picks the names closest to a misspelt one: small edit distance (case
 * ignored) or containment, best first.
 *
 * @example
 * didYouMean("Parsr", ["Parser", "Printer", "parse"]) // ["parse", "Parser"] (both one edit away; the shorter first)
 */
export function didYouMean(target: string, names: Iterable<string>, limit = 5): string[] {
  const wanted = target.toLowerCase();
  const threshold = Math.max(1, Math.floor(wanted.length / 3));
  const scored: { name: string; score: number }[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) continue;
    seen.add(name);
    const lower = name.toLowerCase();
    const last = ownName(lower).replace(/^#/, "");
    let score = Infinity;
    if (lower === wanted || last === wanted) score = 0;
    // A short last segment inside the query ("run" in "runSesion") says little: it must cover half of it.
    else if (wanted.length >= 3 && (lower.includes(wanted) || (wanted.includes(last) && last.length * 2 >= wanted.length))) score = 0.5 + Math.abs(lower.length - wanted.length) / 100;
    if (score > threshold) {
      for (const candidate of last === lower ? [lower] : [lower, last]) {
        if (Math.abs(candidate.length - wanted.length) > threshold) continue;
        score = Math.min(score, editDistance(wanted, candidate, threshold));
      }
    }
    if (score <= threshold) scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || a.name.length - b.name.length || (a.name < b.name ? -1 : 1));
  return scored.slice(0, limit).map((entry) => entry.name);
}
