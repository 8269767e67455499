import type { EntryStat } from "./file-stats.ts";
import { MATCH_STRIDE as STRIDE } from "./match-layout.ts";
import type { SearchFile } from "./text-scan.ts";

/** One worker's matches, as flat arrays so that thousands of matches cross threads as few values. */
export interface WorkerMatches {
  /** (file index, line, column) per match. */
  readonly meta: Int32Array;
  /** The matching lines, one per match (an array of strings crosses threads faster than one joined string is built). */
  readonly texts: readonly string[];
  readonly count: number;
  /** Files read and searched (not binary, not unreadable): for diagnostics. */
  readonly searchedFiles: number;
  /** Files whose size on disk was not the index's when they were read. */
  readonly changed: number[];
  /** Of `changed`, the files not read: their path led to another file than the one listed. */
  readonly unread?: number[];
}

/**
 * The matches of a search, kept as the workers sent them (flat arrays) until
 * the caller builds its own objects from them, so no intermediate object per match is made.
 */
export interface TextMatches {
  /** Matches found (at most `limit`). */
  readonly count: number;
  readonly truncated: boolean;
  /** Files read and searched, over every reply: for diagnostics. */
  readonly searchedFiles: number;
  /** Paths found changed on disk since the index last saw them (their matches are from the new text). */
  readonly changed: string[];
  /**
   * Of {@link changed}, the paths that were not read: they led to another file than the one listed (a link, a folder
   * on the way swapped for one, a file renamed over it), so the search must run again once the index has restated them.
   */
  readonly unread: string[];
  /** The files with matches, each once, in file order (the objects of the list searched). */
  files(): SearchFile[];
  /** The files of {@link files} whose matches `build` does not name (all of them when absent). */
  unnamedFiles?(): SearchFile[];
  /** Each file of the list searched as the search found it (its `lstat`, or the `fstat` of the file it read), where the search stated them (see `walksAfterScan`). */
  entryStats?(): (EntryStat | undefined)[] | undefined;
  /**
   * One value per match, in file order: `make(path, line, column, text, symbol)` with 1-based line and column;
   * `symbol` is the innermost symbol around the line when the search named it (null: none), else undefined.
   */
  build<T>(make: (path: string, line: number, column: number, text: string, symbol?: string | null) => T): T[];
}

/** What a search returns: matches, or an error value (bad pattern, time limit). */
export type TextSearchResult = TextMatches | { readonly error: string };

/**
 * Joins the workers' matches in file order, up to `limit`. Each reply holds its matches in file
 * order, a file's together; the shares interleave (see search-shares.ts), so the replies' runs of
 * one file's matches are merged by file index. Each worker sends at most `limit + 1` matches, the
 * first of its files: the first `limit` of all are among them.
 */
export function mergeMatches(files: readonly SearchFile[], replies: readonly WorkerMatches[], limit: number): TextMatches {
  const changed: string[] = [];
  const unread: string[] = [];
  let searchedFiles = 0;
  let total = 0;
  for (const reply of replies) {
    searchedFiles += reply.searchedFiles;
    total += reply.count;
    for (const index of reply.changed) changed.push(files[index].path);
    for (const index of reply.unread ?? []) unread.push(files[index].path);
  }
  const count = Math.min(total, limit);
  const runs = mergedRuns(replies, count);
  return {
    count,
    truncated: total > limit,
    searchedFiles,
    changed,
    unread,
    files() {
      const matched: SearchFile[] = new Array(runs.length / RUN_STRIDE);
      for (let run = 0; run < runs.length; run += RUN_STRIDE) matched[run / RUN_STRIDE] = files[runs[run + 3]!]!;
      return matched;
    },
    build<T>(make: (path: string, line: number, column: number, text: string) => T): T[] {
      const built: T[] = new Array(count);
      // One loop over the matches, not one per run inside one over the runs: code the engine optimises for an
      // inner loop while the outer one runs is thrown away each time the inner one ends (once per file).
      let run = -RUN_STRIDE;
      let match = 0;
      let end = 0;
      let reply = replies[0]!;
      let path = "";
      for (let seen = 0; seen < count; seen++, match++) {
        while (match === end) {
          run += RUN_STRIDE;
          reply = replies[runs[run]!]!;
          path = files[runs[run + 3]!]!.path;
          match = runs[run + 1]!;
          end = runs[run + 2]!;
        }
        const at = match * STRIDE;
        built[seen] = make(path, reply.meta[at + 1]!, reply.meta[at + 2]!, reply.texts[match]!);
      }
      return built;
    },
  };
}

// A run: (reply, first match, end of matches, file index), flat.
const RUN_STRIDE = 4;

// The runs of one file's matches of every reply, in file order, holding the first `count` matches.
function mergedRuns(replies: readonly WorkerMatches[], count: number): Int32Array {
  const next = replies.map(() => 0);
  const runs: number[] = [];
  let left = count;
  while (left > 0) {
    // The reply whose next match is in the lowest file (a file's matches are all in one reply).
    let best = -1;
    let bestFile = 0;
    for (let reply = 0; reply < replies.length; reply++) {
      const { meta, count: replyCount } = replies[reply]!;
      if (next[reply]! >= replyCount) continue;
      const file = meta[next[reply]! * STRIDE]!;
      if (best === -1 || file < bestFile) {
        best = reply;
        bestFile = file;
      }
    }
    if (best === -1) break;
    const { meta, count: replyCount } = replies[best]!;
    const from = next[best]!;
    let to = from + 1;
    while (to < replyCount && to - from < left && meta[to * STRIDE] === bestFile) to++;
    runs.push(best, from, to, bestFile);
    next[best] = to;
    left -= to - from;
  }
  return Int32Array.from(runs);
}
