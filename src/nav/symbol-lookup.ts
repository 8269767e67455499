import { didYouMean } from "./did-you-mean.ts";
import type { FileRecord } from "./file-analysis.ts";
import type { NavContext } from "./nav-context.ts";
import type { NavError } from "./nav-results.ts";
import type { NavSymbol } from "./symbol.ts";
import { namesSymbol, plainName } from "./symbol-names.ts";

/** A symbol target resolved to one file; overloads come together. */
export interface ResolvedSymbol {
  readonly path: string;
  /** Every declaration with this qualified name in this file (several for overloads). */
  readonly symbols: NavSymbol[];
}

/**
 * Finds the symbol a name refers to, in one file or in the whole index. The
 * exact qualified name wins; then its plain form (`Point.fmt` for
 * `<Point as Display>.fmt`); then trailing segments (`parseExpression`,
 * `classify` for `Model.#classify`). An ambiguous name returns the
 * candidates; an unknown one the closest names, each written so that it
 * resolves when passed back.
 */
export async function resolveSymbol(context: NavContext, name: string, file?: string): Promise<ResolvedSymbol | NavError> {
  const one = file === undefined ? undefined : await context.index.record(file);
  const records: readonly FileRecord[] = file === undefined ? await context.index.records() : one ? [one] : [];
  const prefix = file ? `${file}#` : "";
  for (const test of [(symbol: NavSymbol) => symbol.name === name, (symbol: NavSymbol) => plainName(symbol.name) === name, (symbol: NavSymbol) => namesSymbol(name, symbol.name)]) {
    const groups = groupMatches(records, test);
    if (groups.size === 1) return [...groups.values()][0];
    if (groups.size > 1) {
      const candidates = [...groups.keys()];
      return { error: `'${name}' is ambiguous: ${candidates.length} symbols match; read one of the candidates`, candidates: candidates.slice(0, 20) };
    }
  }
  const suggestions = suggestNames(name, records).map((suggestion) => `${prefix}${suggestion}`);
  return {
    error: `no symbol named '${name}'${file ? ` in ${file}` : ""}`,
    ...(suggestions.length > 0 ? { didYouMean: suggestions } : {}),
  };
}

function groupMatches(records: readonly FileRecord[], test: (symbol: NavSymbol) => boolean): Map<string, ResolvedSymbol> {
  const groups = new Map<string, ResolvedSymbol>();
  for (const record of records) {
    for (const symbol of record.symbols) {
      if (!test(symbol)) continue;
      const key = `${record.path}#${symbol.name}`;
      const group = groups.get(key);
      if (group) group.symbols.push(symbol);
      else groups.set(key, { path: record.path, symbols: [symbol] });
    }
  }
  return groups;
}

// Close names, each as a target that resolves to one symbol: a name declared in several files is given as `path#name`.
function suggestNames(name: string, records: readonly FileRecord[]): string[] {
  const files = new Map<string, string[]>();
  for (const record of records) {
    for (const symbol of record.symbols) {
      const paths = files.get(symbol.name);
      if (!paths) files.set(symbol.name, [record.path]);
      else if (paths[paths.length - 1] !== record.path) paths.push(record.path);
    }
  }
  const suggestions: string[] = [];
  for (const suggestion of didYouMean(name, files.keys())) {
    const paths = files.get(suggestion) ?? [];
    if (paths.length === 1 || records.length === 1) suggestions.push(suggestion);
    else suggestions.push(...paths.slice(0, 3).map((path) => `${path}#${suggestion}`));
  }
  return suggestions.slice(0, 5);
}
