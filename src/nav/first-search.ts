import { setImmediate as nextTurn } from "node:timers/promises";
import { globMatcher, looksBinary } from "./file-rules.ts";
import { mergeMatches, type TextMatches } from "./search-matches.ts";
import type { TextSearchRequest } from "./text-search.ts";
import { filterOfBytes, type FilterSink } from "./file-filters.ts";
import { lineRegex } from "./line-regex.ts";
import { bytesMatchText, escapeRegExp } from "./literal-finder.ts";
import { decodeText, ScratchReader } from "./file-read.ts";
import { compileLinePattern, MatchSink, scanPlan, scanText, type ScanPlan, type SearchFile } from "./text-scan.ts";
import { searchNatively } from "./native-first-search.ts";
import { GuardTimeout, ScanStopped, TimeGuard } from "./time-guard.ts";

// The scan gives the event loop a turn after reading this many bytes, so a large repository does not hold it up.
const YIELD_EVERY_BYTES = 8 * 1024 * 1024;
// A pattern scans the texts read in batches of about this many characters, each batch under the
// time guard (which costs about 0.1 ms a run): 7 batches for Python's standard library.
const GUARDED_BATCH_CHARS = 4 * 1024 * 1024;
/**
 * The time a pattern may take on the calling thread, all batches together, before
 * the search gives it up and runs on the workers instead (as a worker gives up the
 * backtracking engine after this much CPU time without progress; see `STALL_MS`).
 */
export const HERE_PATTERN_BUDGET_MS = 300;

/**
 * True when a search can run on the calling thread: a literal, or a regular
 * expression that compiles and has no repeated group holding a repetition or
 * an alternation (those run on the workers' linear-time engine from the start).
 */
export function runsHere(request: Pick<TextSearchRequest, "regex" | "query" | "caseSensitive">): boolean {
  if (!request.regex) return true;
  const pattern = lineRegex(request.query, request.caseSensitive);
  return !("error" in pattern) && !pattern.nestedRepetition;
}

/**
 * A search on the calling thread, for the first search of a process: the
 * search workers would first have to start (tens of milliseconds each) and
 * read and decode every file. When the native addon takes it (see
 * `searchNatively`), the addon's threads read and scan the files while this
 * thread goes on, and this thread makes the matches from the lines they found.
 * Otherwise each file's bytes are read once and tested
 * for the literal (a literal query, or the literal every match of the pattern
 * holds) before anything is decoded, and only the files that may hold it are
 * decoded and scanned, by the same code the workers run (text-scan.ts), so the
 * lines are the same. A literal search runs in linear time; a pattern runs on
 * V8's backtracking engine under a {@link TimeGuard} of
 * {@link HERE_PATTERN_BUDGET_MS}, which stops even a catastrophic one.
 *
 * @param stop - checked between files (every 10 ms while the addon scans): the deadline passed or the search was cancelled
 * @param deadline - the search's: the pattern's time here ends with it, if sooner
 * @param mayHoldFile - false for a file that cannot hold the literal (the index's trigram filter): it is not read
 * @param learn - gets a trigram filter of each file read whole that it wants
 * @returns the matches, or `undefined` when the pattern ran out of its time here, the native scan's lines came to more than it keeps, or the addon's threads could not scan more than this thread reads itself (the caller runs the search on the workers, if the deadline has not passed)
 */
export async function searchHere(
  files: readonly SearchFile[],
  request: TextSearchRequest,
  stop: () => ScanStopped | undefined,
  deadline: number,
  mayHoldFile?: (file: SearchFile) => boolean,
  learn?: FilterSink,
): Promise<TextMatches | undefined> {
  const { plan, literal } = planOf(request);
  const budgetMs = Math.min(HERE_PATTERN_BUDGET_MS, deadline - Date.now());
  const native = await searchNatively(files, request, plan, literal, { stop, deadline, patternBudgetMs: budgetMs, mayHoldFile, learn });
  if (native !== null) return native;
  const sink = new MatchSink();
  const wanted = request.limit + 1;
  const isMatch = request.glob ? globMatcher(request.glob) : undefined;
  const mayHold = literal === undefined ? () => true : bytePrefilter(literal, request.caseSensitive);
  const batch = plan.pattern ? new GuardedBatch(plan, sink, wanted, new TimeGuard(budgetMs)) : undefined;
  const changed: number[] = [];
  const unread: number[] = [];
  const reader = new ScratchReader(request.maxFileBytes);
  let searchedFiles = 0;
  let sinceYield = 0;
  for (let index = 0; index < files.length && sink.count < wanted; index++) {
    const file = files[index]!;
    if (file.size > request.maxFileBytes) continue;
    if (isMatch && !isMatch(file.path)) continue;
    // The index's trigram filter says the file cannot hold the literal: it is not read.
    if (mayHoldFile && !mayHoldFile(file)) continue;
    const { bytes, changed: differs } = reader.read(request.root, file);
    if (differs) changed.push(index);
    if (differs && bytes === null) unread.push(index);
    if (bytes !== null && !differs && learn?.wants(file)) learn.add(file, filterOfBytes(bytes));
    if (bytes === null || looksBinary(bytes)) continue;
    searchedFiles++;
    // The lines found are slices of the decoded text, which lives as long as they do (the repository is small).
    if (mayHold(bytes)) {
      if (!batch) scanText(index, { text: decodeText(bytes) }, plan, sink, wanted);
      else if (!batch.add(index, decodeText(bytes))) return undefined;
    }
    const stopped = stop();
    if (stopped) throw stopped;
    sinceYield += bytes.length;
    if (sinceYield >= YIELD_EVERY_BYTES) {
      sinceYield = 0;
      await nextTurn();
    }
  }
  if (batch && !batch.flush()) return undefined;
  return mergeMatches(files, [{ ...sink.result(), searchedFiles, changed, unread }], request.limit);
}

// What the search scans for, and the literal a file must hold to be scanned (none: every file is).
function planOf(request: TextSearchRequest): { plan: ScanPlan; literal: string | undefined } {
  if (!request.regex) return { plan: scanPlan(request.query, request.caseSensitive, undefined, undefined), literal: request.query };
  const pattern = lineRegex(request.query, request.caseSensitive);
  if ("error" in pattern) throw new Error(pattern.error);
  return { plan: scanPlan(request.query, request.caseSensitive, compileLinePattern(pattern, false, true), pattern.literal), literal: pattern.literal };
}

/** Texts waiting to be scanned by a pattern, in batches under a time guard. */
class GuardedBatch {
  readonly #plan: ScanPlan;
  readonly #sink: MatchSink;
  readonly #wanted: number;
  readonly #guard: TimeGuard;
  #indexes: number[] = [];
  #texts: string[] = [];
  #chars = 0;

  constructor(plan: ScanPlan, sink: MatchSink, wanted: number, guard: TimeGuard) {
    this.#plan = plan;
    this.#sink = sink;
    this.#wanted = wanted;
    this.#guard = guard;
  }

  /** Adds a text (scanning the batch when it is full); false when the guard's time ran out. */
  add(fileIndex: number, text: string): boolean {
    this.#indexes.push(fileIndex);
    this.#texts.push(text);
    this.#chars += text.length;
    return this.#chars < GUARDED_BATCH_CHARS || this.flush();
  }

  /** Scans the texts waiting; false when the guard's time ran out (what the sink holds is then incomplete). */
  flush(): boolean {
    if (this.#texts.length === 0) return true;
    const indexes = this.#indexes;
    const texts = this.#texts;
    this.#indexes = [];
    this.#texts = [];
    this.#chars = 0;
    try {
      this.#guard.run(() => {
        for (let at = 0; at < texts.length && this.#sink.count < this.#wanted; at++) scanText(indexes[at]!, { text: texts[at]! }, this.#plan, this.#sink, this.#wanted);
      });
      return true;
    } catch (error) {
      if (error instanceof GuardTimeout) return false;
      throw error;
    }
  }
}

/**
 * A test on a file's bytes that is false only when its text cannot hold the
 * literal: the literal's UTF-8 bytes for a case-sensitive search; for an ASCII
 * literal that ignores case, the same case-insensitive expression on the bytes
 * read as Latin-1 (no character from U+0080 matches an ASCII letter in any case
 * under JavaScript's rules, so the files found are the same); else none.
 */
function bytePrefilter(literal: string, caseSensitive: boolean): (bytes: Buffer) => boolean {
  // A literal with U+FFFD or a lone surrogate could match where the decoder replaced bytes it could not read.
  if (!bytesMatchText(literal, caseSensitive)) return () => true;
  if (caseSensitive) {
    const needle = Buffer.from(literal, "utf8");
    return (bytes) => bytes.includes(needle);
  }
  const pattern = new RegExp(escapeRegExp(literal), "i");
  return (bytes) => pattern.test(bytes.toString("latin1"));
}
