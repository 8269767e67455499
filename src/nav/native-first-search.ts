// A first search on the native addon's scan (native-addon.ts): its threads read the files and find the
// lines that hold the search's literal while this thread goes on (walking the repository, say);
// this thread then decodes those lines and does what `searchHere` does with them, so the answer
// is the same, line for line.
import os from "node:os";
import { BINARY_SNIFF_BYTES, globMatcher } from "./file-rules.ts";
import { searchAlternatives, searchLiteral, searchLiterals } from "./line-regex.ts";
import { bytesMatchText } from "./literal-finder.ts";
import type { FilterSink } from "./file-filters.ts";
import { nativeAddon, type NativeScanReply } from "./native-addon.ts";
import { nativeMatches } from "./native-matches.ts";
import { fitsHere } from "./search-placement.ts";
import { gramsPlaceInto, spansPlaceInto, type GramsPieces } from "./cached-record.ts";
import type { TrigramTest } from "./index-filters.ts";
import { isCacheList } from "./index-filters.ts";
import type { SymbolPieces } from "./symbol-store.ts";
import type { TextMatches } from "./search-matches.ts";
import { pathUnder, type ScanPlan, type SearchFile } from "./text-scan.ts";
import type { TextSearchRequest } from "./text-search.ts";
import { GuardTimeout, ScanStopped, TimeGuard } from "./time-guard.ts";

/** The native scanner's threads: one per core, at most this many. */
const MAX_THREADS = 8;
/**
 * The most bytes of lines a scan keeps: a pattern's scan keeps every line that holds its literal
 * until the pattern runs, so a common literal could keep most of a large repository, and a literal's
 * lines can be long (a minified file is one line). Past it the search runs on the workers, which
 * keep lines as slices of the texts they hold.
 */
const MAX_LINE_BYTES = 64 * 1024 * 1024;
// How often the wait for the scanner checks whether the search was stopped.
const STOP_POLL_MS = 10;

/** How {@link searchNatively} runs. */
export interface NativeSearchOptions {
  /** Checked while the scan runs: the search's deadline passed, or it was cancelled. */
  readonly stop: () => ScanStopped | undefined;
  /** The search's deadline (`Date.now()` time). */
  readonly deadline: number;
  /** The time the pattern may take on this thread. */
  readonly patternBudgetMs: number;
  /**
   * False for a file that cannot hold the literal (the index's trigram filter): it is not read. With its `trigrams`,
   * the scan tests the filters of the disk cache's own entries itself.
   */
  readonly mayHoldFile?: TrigramTest;
  /** Wants a trigram filter of files the index knows nothing of (this thread reads those). */
  readonly learn?: FilterSink;
  /** The most bytes of lines the scan keeps (default {@link MAX_LINE_BYTES}). */
  readonly maxLineBytes?: number;
}

/**
 * The search of `searchHere` on the native addon's scan, or `null` when it does not apply: no addon was
 * built, its threads took no file (none could start) and this thread reads the files itself (see `fitsHere`), a file must be read by this thread (the index wants its trigram filter), or the literal is one
 * whose bytes may not match exactly where its text does (a line feed, U+FFFD or a lone surrogate in it,
 * or non-ASCII letters ignoring case). `undefined` when the pattern ran out of its time, as for `searchHere`,
 * when the lines holding the literal came to more than {@link MAX_LINE_BYTES}, or when its threads took no file
 * and the files are more than this thread reads itself (the workers then run it).
 *
 * @param literal - what every matching line holds: the query, or the pattern's required literal
 */
export async function searchNatively(
  files: readonly SearchFile[],
  request: TextSearchRequest,
  plan: ScanPlan,
  literal: string | undefined,
  { stop, deadline, patternBudgetMs, mayHoldFile, learn, maxLineBytes = MAX_LINE_BYTES }: NativeSearchOptions,
): Promise<TextMatches | undefined | null> {
  const scanner = nativeAddon();
  if (!scanner || literal === undefined || !exactInBytes(literal, request.caseSensitive)) return null;
  const isMatch = request.glob ? globMatcher(request.glob) : undefined;
  // The disk cache's own list of a small repository: every file is stated by the scan, read or not (see walksAfterScan).
  const statAll = walksAfterScan(files);
  // Per path given to the scan (the first `count` of each): its file's index in `files`, whether it is read, where
  // the disk cache keeps its spans (-1: nowhere; the scan then names no hit of it), and which file it must lead to
  // (its device and inode number; NaN: not known). Typed arrays as long as the list, not arrays grown file by file.
  const indexes = new Int32Array(files.length);
  const paths: string[] = [];
  const read = new Uint8Array(files.length);
  const spansAt = new Float64Array(files.length);
  const spansLength = new Int32Array(files.length);
  const identity = new Float64Array(files.length * 2);
  // Where each path's trigram filter is in the disk cache's filter file, when the scan tests it (-1: this thread did).
  // Only when every path goes to the scan anyway (to be stated): in a larger repository, the paths of the files that
  // cannot hold the literal (most, for a rare one) would cost more to hand over than their tests on this thread.
  const trigrams = statAll ? mayHoldFile?.trigrams : undefined;
  const gramsAt = trigrams ? new Float64Array(files.length) : undefined;
  const gramsLength = trigrams ? new Int32Array(files.length) : undefined;
  let gramsFile: GramsPieces | undefined;
  let count = 0;
  let identified = false;
  let spansFile: SymbolPieces | undefined;
  const mayLearn = learn !== undefined && !isCacheList(files);
  for (let index = 0; index < files.length; index++) {
    const file = files[index]!;
    let reads = file.size <= request.maxFileBytes && (!isMatch || isMatch(file.path));
    if (gramsAt) gramsAt[count] = -1;
    if (reads && mayHoldFile) {
      // An entry of the disk cache's list is judged by its own filter, in the filter file: the scan tests it, on its threads.
      const place = gramsAt && gramsLength && gramsPlaceInto(file, gramsAt, gramsLength, count);
      if (!place || (gramsFile ??= place) !== place) {
        if (gramsAt) gramsAt[count] = -1;
        reads = mayHoldFile(file);
      }
    }
    if (!reads && !statAll) continue;
    if (reads && mayLearn && learn.wants(file)) return null;
    indexes[count] = index;
    paths.push(pathUnder(request.root, file.path));
    read[count] = reads ? 1 : 0;
    const place = spansPlaceInto(file, spansAt, spansLength, count);
    // One spans file for all (the cache's): a record of another is not named by the scan.
    if (place === undefined || (spansFile ??= place) !== place) {
      spansAt[count] = -1;
      spansLength[count] = 0;
    }
    identity[count * 2] = file.dev ?? Number.NaN;
    identity[count * 2 + 1] = file.ino ?? Number.NaN;
    identified ||= file.ino !== undefined;
    count++;
  }
  const fd = spansFile?.fd;
  const spans = fd === undefined ? undefined : { fd, at: spansAt.subarray(0, count), length: spansLength.subarray(0, count) };
  const wanted = request.limit + 1;
  const threads = Math.max(1, Math.min(os.availableParallelism(), MAX_THREADS));
  // A pattern may match fewer of the lines than hold its literal: every file is scanned for it.
  // A pattern's other required literals: a line without one of them cannot match, so it is not kept.
  const also = plan.pattern ? searchLiterals(request).filter((other) => other !== literal && exactInBytes(other, request.caseSensitive)) : [];
  // ...and one of each group of its required alternatives (`os` or `sys` for `import\s+(os|sys)\b`; ASCII word runs,
  // which match exactly in bytes, as the filter checks again).
  const anyOf = plan.pattern ? searchAlternatives(request).filter((group) => group.every((other) => exactInBytes(other, request.caseSensitive))) : [];
  const readMask = statAll ? read.subarray(0, count) : undefined;
  const identities = identified ? identity.subarray(0, count * 2) : undefined;
  // The filter file still open is read by the scan itself, off this thread; one that cannot be read rules no file out
  // (as `filterMayHold` says).
  const gramsSource = gramsFile && (gramsFile.open?.() ?? { data: gramsFile.all() });
  const grams = trigrams && gramsAt && gramsLength && gramsSource && ("fd" in gramsSource || gramsSource.data) ? { ...gramsSource, at: gramsAt.subarray(0, count), length: gramsLength.subarray(0, count), trigrams } : undefined;
  const { promise, cancel } = scanner.scan(paths, literal, !request.caseSensitive, plan.pattern ? Number.MAX_SAFE_INTEGER : wanted, threads, deadline, BINARY_SNIFF_BYTES, maxLineBytes, also, spans, readMask, identities, grams, anyOf);
  const reply = await untilStopped(promise, cancel, stop);
  if (reply.stopped === 1) throw new ScanStopped("timeout");
  // Too many bytes of lines to keep here: the workers run the search.
  if (reply.stopped === 3) return undefined;
  let matches: TextMatches | null;
  try {
    // A literal's every hit is a match; a pattern runs on the lines that hold its literal, under the time guard.
    const guard = plan.pattern ? new TimeGuard(Math.min(patternBudgetMs, deadline - Date.now())) : undefined;
    const given = indexes.subarray(0, count);
    matches = guard ? guard.run(() => nativeMatches(files, given, reply, request.limit, plan.pattern)) : nativeMatches(files, given, reply, request.limit);
  } catch (error) {
    if (error instanceof GuardTimeout) return undefined;
    throw error;
  }
  // No thread took a file it needed (none could start): this thread scans what it reads itself, the workers the rest.
  if (matches === null) return fitsHere(files, request.maxFileBytes, mayHoldFile) ? null : undefined;
  return matches;
}

// Repositories whose walk waits for a first search's scan, to take its stats (see walksAfterScan); above it the
// walk's own stats run beside the scan (a second walking thread takes part of them), as the walk of the files
// the scan does not read would come after it.
const WALK_AFTER_SCAN_BELOW = 10_000;

/**
 * True when a first search on these files, on the native addon's threads, also states each of them (its
 * `fstat` of the files it reads, an `lstat` of the others), so that the walk that confirms the list needs no
 * `stat` of its own and comes after the scan instead of beside it (their system calls competed for the
 * same cores): the disk cache's own list of fewer than {@link WALK_AFTER_SCAN_BELOW} files, with the addon built.
 */
export function walksAfterScan(files: readonly SearchFile[]): boolean {
  return files.length < WALK_AFTER_SCAN_BELOW && isCacheList(files) && nativeAddon() !== undefined;
}

/**
 * True when a search of these files would run on the native addon's threads whatever their size:
 * the addon is built, the query is a literal, or a pattern with a required literal that runs on the
 * backtracking engine (see `runsHere`), whose bytes match exactly where its text does, and the index
 * wants no trigram filter of a file it would read (those files are read by this thread).
 */
export function scansNatively(files: readonly SearchFile[], request: Pick<TextSearchRequest, "regex" | "query" | "caseSensitive" | "maxFileBytes">, mayHold?: (file: SearchFile) => boolean, learn?: FilterSink): boolean {
  if (!nativeAddon()) return false;
  const literal = searchLiteral(request, true);
  if (literal === undefined || !exactInBytes(literal, request.caseSensitive)) return false;
  // The index wants a filter of no file of the cache's own list.
  if (!learn || isCacheList(files)) return true;
  // `wants` first: it costs less than `mayHold`.
  for (const file of files) if (file.size <= request.maxFileBytes && learn.wants(file) && (!mayHold || mayHold(file))) return false;
  return true;
}

// True when the literal's bytes are found exactly where its text is (see `bytesMatchText`), and it has no
// line feed (a match never crosses one).
function exactInBytes(literal: string, caseSensitive: boolean): boolean {
  return literal.length > 0 && !literal.includes("\n") && bytesMatchText(literal, caseSensitive);
}

// Waits for the scan, cancelling it when the search is stopped (cancelled, or out of time).
async function untilStopped(promise: Promise<NativeScanReply>, cancel: () => void, stop: NativeSearchOptions["stop"]): Promise<NativeScanReply> {
  let stopped: ScanStopped | undefined;
  const poll = setInterval(() => {
    stopped ??= stop();
    if (stopped) cancel();
  }, STOP_POLL_MS);
  try {
    const reply = await promise;
    // As the JavaScript scan checks after each file, so this one checks once it is done; but an answer the scan
    // completed (it had its hits, and only stated files when the time ran out) stands.
    stopped ??= stop();
    if (stopped && !(stopped.reason === "timeout" && reply.stopped === 0)) throw stopped;
    return reply;
  } finally {
    clearInterval(poll);
  }
}
