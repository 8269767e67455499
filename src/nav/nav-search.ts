import { globMatcher } from "./file-rules.ts";
import { lineRegex, searchLiterals } from "./line-regex.ts";
import type { NavContext } from "./nav-context.ts";
import type { NavError, NavSearchOptions, NavSearchResult, SearchMatch } from "./nav-results.ts";
import { symbolSpans } from "./cached-record.ts";
import { EnclosingSymbols } from "./enclosing-symbol.ts";
import type { NavSymbol } from "./symbol.ts";
import { NO_SPANS, type SymbolSpans } from "./symbol-piece.ts";
import type { SearchFile } from "./text-scan.ts";
import type { TextSearchRequest, TextSearchResult } from "./text-search.ts";
import { literalTrigrams } from "./trigram-filter.ts";
import { scansNatively, walksAfterScan } from "./native-first-search.ts";

/** Matches returned when no `limit` is given. */
export const DEFAULT_SEARCH_LIMIT = 50;

/**
 * `nav_search(query, options)`: lines matching a literal (default) or a
 * regular expression, each with the innermost enclosing symbol; or, with
 * `{ symbols: true }`, symbols whose qualified name matches. Matching runs in
 * a worker under a time limit, so no pattern can hang the host.
 */
export async function navSearch(context: NavContext, query: string, options: NavSearchOptions = {}): Promise<NavSearchResult | NavError> {
  const { regex = false, caseSensitive = false, glob, symbols = false, limit = DEFAULT_SEARCH_LIMIT } = options;
  if (query.length === 0) return { error: "the query is empty; pass the text (or with { regex: true } the pattern) to look for" };
  if (!Number.isInteger(limit) || limit < 1) return { error: `limit must be a whole number from 1, got ${limit}` };
  if (regex) {
    // What a line-oriented search cannot run is told first (an inline flag is also not valid JavaScript, say).
    const lineOriented = lineRegex(query, caseSensitive);
    if ("error" in lineOriented) return { error: lineOriented.error };
    try {
      new RegExp(query);
    } catch (error) {
      return { error: `invalid regular expression: ${(error as Error).message}` };
    }
  }
  const request = { root: context.index.root, query, regex, caseSensitive, limit, maxFileBytes: context.maxFileBytes, ...(glob ? { glob } : {}) };
  if (symbols) return searchSymbols(context, request, glob);
  let result = await searchWhileWalking(context, request);
  if ("error" in result) return { error: result.error };
  let refused = await recordChanged(context, result.changed);
  // Files that changed since the walk are restated by the index: one that changed into what the read rule refuses is
  // no longer listed, and one that now is another file (a link, or an editor's save that renamed a new file over it)
  // was not read (see openListed in file-read.ts). Then the search runs again over the files as the index now lists
  // them, so that it reads those and leaves the others out, and its limit and `truncated` hold. (Matches of a file
  // that changed so again meanwhile are left out.) A file that only changed size was read as it is now.
  if (refused.size > 0 || result.unread.length > 0) {
    result = await searchWhileWalking(context, request);
    if ("error" in result) return { error: result.error };
    refused = await recordChanged(context, result.changed);
  }
  const spansByPath = new Map<string, SymbolSpans>();
  // Records the index holds (in memory or in the disk cache) first, without a promise or a lookup by path each
  // (a repeated search asks for the same files again); the others are analysed, in parallel when many.
  const unknown: string[] = [];
  // The files whose matches the search did not name (the native scan names those of the disk cache's list).
  for (const file of result.unnamedFiles?.() ?? result.files()) {
    const record = context.index.knownRecordOf(file);
    if (record) spansByPath.set(file.path, symbolSpans(record));
    else unknown.push(file.path);
  }
  if (unknown.length > 0) {
    await context.index.prepare(unknown);
    for (const path of unknown) {
      const record = context.index.knownRecord(path) ?? (await context.index.record(path, false));
      if (record) spansByPath.set(path, symbolSpans(record));
    }
  }
  let currentPath: string | undefined;
  let enclosing = new EnclosingSymbols(NO_SPANS);
  // A file's matches come together, in line order.
  const matches = result.build((path, line, column, text, symbol): SearchMatch => {
    if (symbol !== undefined) return { path, line, column, text, symbol };
    if (path !== currentPath) {
      currentPath = path;
      enclosing = new EnclosingSymbols(spansByPath.get(path) ?? NO_SPANS);
    }
    return { path, line, column, text, symbol: enclosing.nameAt(line) };
  });
  return { matches: refused.size > 0 ? matches.filter((match) => !refused.has(match.path)) : matches, truncated: result.truncated };
}

// Files the scan found changed on disk are analysed again (the others are trusted without a stat); those that
// changed into what the read rule refuses since the walk (a link to `.env`) have no record: their paths.
async function recordChanged(context: NavContext, changed: readonly string[]): Promise<Set<string>> {
  const refused = new Set<string>();
  for (const path of changed) if (!(await context.index.record(path))) refused.add(path);
  return refused;
}

/**
 * Runs a text search over the repository's files. The trigrams of a literal (or of every
 * required literal of a pattern) are tested against the index's filters, so a first
 * search reads only the files that may hold it (on the native addon's threads, or on this
 * thread when they are few). Before the first walk, the search starts on the disk cache's
 * file list, on the workers or the addon's threads while this thread walks, or on this
 * thread before it walks when the list is complete (see
 * `RepositoryIndex.cachedSearchFiles`): what it found stands when the walk
 * lists the same files with the same sizes, mtimes and ctimes, and the search runs again
 * over the walked files otherwise (the workers then read only what changed). A file of the
 * cache's list is its own record, so testing the list costs a fraction of testing the
 * walked files (25 ms for 50,000). Each file read from disk that the index knows nothing
 * of leaves a trigram filter in the index (and its disk cache), so the next process's
 * first search can skip it.
 */
export async function searchWhileWalking(context: NavContext, request: TextSearchRequest): Promise<TextSearchResult> {
  const early = await context.index.cachedSearchFiles();
  // The trigrams of a literal, or of every required literal of a pattern, against the index's filters:
  // files that cannot hold them are not read. Once the workers hold every text, nothing is read anyway.
  const trigrams = context.engine.holdsTexts ? undefined : searchTrigrams(request);
  const holds = trigrams ? await context.index.trigramTest(trigrams) : undefined;
  // Files read from disk leave a filter for the next process's first search.
  const learn = context.engine.holdsTexts ? undefined : await context.index.filterSink();
  // On the cache's list when it lists every file (else a search on this thread would often run twice) or when the search runs on the workers.
  if (early && (early.complete || context.engine.runsOnWorkers(early.files, request, holds, learn))) {
    // The workers read every file in the background once the answer stands, not before a search that runs again.
    const pending = context.engine.search(early.files, request, holds, learn, { loadAfter: false });
    // In a small repository the addon's scan states every file as it goes, and the walk comes after it, stating
    // none of them again; otherwise the walk goes on beside the search (a search on the workers reaches them first).
    const after = early.complete && walksAfterScan(early.files) && scansNatively(early.files, request, holds, learn);
    if (!after) await new Promise((resolve) => setImmediate(resolve));
    const walkedBeside = after ? undefined : context.searchFiles();
    const result = await pending;
    const stats = after && !("error" in result) ? result.entryStats?.() : undefined;
    const files = walkedBeside ?? context.searchFiles(stats && { files: early.files, stats });
    // An error (the time limit, say) is the answer: a search that ran out of time would run out again.
    if ("error" in result || sameFiles(early.files, files)) {
      if (!("error" in result)) context.engine.loadInBackground(files, request, learn);
      return result;
    }
    return context.engine.search(files, request, holds, learn);
  }
  // No cache's list to start on (or an incomplete one, for a search on this thread): the workers, when the
  // search surely runs on them, start while this thread walks the repository.
  context.engine.warm(request);
  return context.engine.search(context.searchFiles(), request, holds, learn);
}

// The trigrams every matching line holds: a literal's, or those of every required literal of a pattern.
function searchTrigrams(request: TextSearchRequest): Uint32Array | undefined {
  const each = searchLiterals(request).map((literal) => literalTrigrams(literal, request.caseSensitive)).filter((trigrams) => trigrams !== undefined);
  if (each.length <= 1) return each[0];
  const all: number[] = [];
  for (const trigrams of each) all.push(...trigrams);
  return Uint32Array.from(all);
}

// The same paths, sizes, mtimes and ctimes (a cached list was ruled out by filters trusted for those).
function sameFiles(a: readonly SearchFile[], b: readonly SearchFile[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) {
    const x = a[index]!;
    const y = b[index]!;
    if (x.path !== y.path || x.size !== y.size || x.mtimeMs !== y.mtimeMs || x.ctimeMs !== y.ctimeMs) return false;
  }
  return true;
}

async function searchSymbols(
  context: NavContext,
  request: TextSearchRequest,
  glob: string | undefined,
): Promise<NavSearchResult | NavError> {
  const isMatch = glob ? globMatcher(glob) : undefined;
  const entries: { path: string; symbol: NavSymbol }[] = [];
  for (const record of await context.index.records()) {
    if (isMatch && !isMatch(record.path)) continue;
    for (const symbol of record.symbols) entries.push({ path: record.path, symbol });
  }
  const result = await context.engine.searchNames(entries.map((entry) => entry.symbol.name), request);
  if ("error" in result) return { error: result.error };
  const matches: SearchMatch[] = result.hits.slice(0, request.limit).map((index) => {
    const { path, symbol } = entries[index];
    return { path, line: symbol.line, column: symbol.column, text: symbol.signature, symbol: symbol.name, kind: symbol.kind };
  });
  return { matches, truncated: result.hits.length > request.limit };
}
