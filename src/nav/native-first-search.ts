// A first search on the native addon's scan (native-addon.ts): its threads read the files and find the
// lines that hold the search's literal while this thread goes on (walking the repository, say);
// this thread then decodes those lines and does what `searchHere` does with them, so the answer
// is the same, line for line.
import os from "node:os";
import { BINARY_SNIFF_BYTES, globMatcher } from "./file-rules.ts";
import { searchLiteral, searchLiterals } from "./line-regex.ts";
import { bytesMatchText } from "./literal-finder.ts";
import type { FilterSink } from "./file-filters.ts";
import { NATIVE_FILE_STRIDE as FILE_STRIDE, NATIVE_HIT_STRIDE as STRIDE, nativeAddon, type NativeScanReply } from "./native-addon.ts";
import { nativeLiteralMatches } from "./native-matches.ts";
import { fitsHere } from "./search-placement.ts";
import { mergeMatches, type TextMatches, type WorkerMatches } from "./search-matches.ts";
import { lineText, MatchSink, pathUnder, type ScanPlan, type SearchFile } from "./text-scan.ts";
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
  /** False for a file that cannot hold the literal (the index's trigram filter): it is not read. */
  readonly mayHoldFile?: (file: SearchFile) => boolean;
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
  const indexes: number[] = [];
  const paths: string[] = [];
  for (let index = 0; index < files.length; index++) {
    const file = files[index]!;
    if (file.size > request.maxFileBytes || (isMatch && !isMatch(file.path)) || (mayHoldFile && !mayHoldFile(file))) continue;
    if (learn?.wants(file)) return null;
    indexes.push(index);
    paths.push(pathUnder(request.root, file.path));
  }
  const wanted = request.limit + 1;
  const threads = Math.max(1, Math.min(os.availableParallelism(), MAX_THREADS));
  // A pattern may match fewer of the lines than hold its literal: every file is scanned for it.
  // A pattern's other required literals: a line without one of them cannot match, so it is not kept.
  const also = plan.pattern ? searchLiterals(request).filter((other) => other !== literal && exactInBytes(other, request.caseSensitive)) : [];
  const { promise, cancel } = scanner.scan(paths, literal, !request.caseSensitive, plan.pattern ? Number.MAX_SAFE_INTEGER : wanted, threads, deadline, BINARY_SNIFF_BYTES, maxLineBytes, also);
  const reply = await untilStopped(promise, cancel, stop);
  if (reply.stopped === 1) throw new ScanStopped("timeout");
  // Too many bytes of lines to keep here: the workers run the search.
  if (reply.stopped === 3) return undefined;
  // A literal's every hit is a match; a pattern runs on the lines that hold its literal.
  const collected = plan.pattern ? collect(files, indexes, reply, plan.pattern, wanted, new TimeGuard(Math.min(patternBudgetMs, deadline - Date.now()))) : nativeLiteralMatches(files, indexes, reply, request.limit);
  // No thread took a file it needed (none could start): this thread scans what it reads itself, the workers the rest.
  if (collected === null) return fitsHere(files, request.maxFileBytes, mayHoldFile) ? null : undefined;
  return collected && ("build" in collected ? collected : mergeMatches(files, [collected], request.limit));
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
  if (!learn) return true;
  // `wants` first: a file of the cache's list answers it without a lookup, and `mayHold` costs more.
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
    // As the JavaScript scan checks after each file, so this one checks once it is done.
    stopped ??= stop();
    if (stopped) throw stopped;
    return reply;
  } finally {
    clearInterval(poll);
  }
}

// A pattern's matches among the lines that hold its literal, as `searchHere` makes them: files in order until
// `wanted` matches, each file's lines in order, the pattern under the time guard.
function collect(files: readonly SearchFile[], indexes: readonly number[], reply: NativeScanReply, pattern: RegExp, wanted: number, guard: TimeGuard): WorkerMatches | undefined | null {
  const bytes = Buffer.from(reply.bytes);
  // The ASCII lines are slices of one string (few objects for the collector to copy, none of them large).
  const lines = { bytes, latin1: bytes.toString("latin1") };
  const { hits } = reply;
  const sink = new MatchSink(undefined, Math.min(wanted, hits.length / STRIDE));
  const changed: number[] = [];
  let searchedFiles = 0;
  let hit = 0;
  try {
    return guard.run(() => {
      for (let at = 0; at < indexes.length && sink.count < wanted; at++) {
        const length = reply.files[at * FILE_STRIDE]!;
        // A file no thread took before the search had its matches: no thread could start (see `searchNatively`).
        if (length === -2) return null;
        // The hits of this file come next.
        const firstHit = hit;
        hit += reply.files[at * FILE_STRIDE + 2]!;
        if (length === -1) continue;
        const index = indexes[at]!;
        if (length !== files[index]!.size) changed.push(index);
        if (reply.files[at * FILE_STRIDE + 1] === 1) continue;
        searchedFiles++;
        for (let one = firstHit; one < hit && sink.count < wanted; one++) pushHit(sink, index, hits, one * STRIDE, lines, pattern);
      }
      return { ...sink.result(), searchedFiles, changed };
    });
  } catch (error) {
    if (error instanceof GuardTimeout) return undefined;
    throw error;
  }
}

// One line that holds the pattern's literal: a match where the pattern matches the line, if it does.
function pushHit(sink: MatchSink, fileIndex: number, hits: Int32Array, at: number, { bytes, latin1 }: { bytes: Buffer; latin1: string }, pattern: RegExp): void {
  const lineOffset = hits[at + 3]!;
  const lineEnd = lineOffset + hits[at + 4]!;
  const line = hits[at + 5] === 1 ? latin1.slice(lineOffset, lineEnd) : bytes.toString("utf8", lineOffset, lineEnd);
  pattern.lastIndex = 0;
  const match = pattern.exec(line);
  if (match) sink.push(fileIndex, hits[at + 1]!, match.index + 1, lineText(line, 0, line.length, match.index));
}
