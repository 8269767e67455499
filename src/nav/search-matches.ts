import { MATCH_STRIDE as STRIDE } from "./match-layout.ts";
import type { SearchFile } from "./text-scan.ts";

/** One worker's matches, as flat arrays so that thousands of matches cross threads as few values. */
export interface WorkerMatches {
  /** (file index, line, column) per match. */
  readonly meta: Int32Array;
  /** The matching lines, one per match (an array of strings crosses threads faster than one joined string is built). */
  readonly texts: readonly string[];
  readonly count: number;
  readonly searchedFiles: number;
  /** Files whose size on disk was not the index's when they were read. */
  readonly changed: number[];
}

/**
 * The matches of a search, kept as the workers sent them (flat arrays) until
 * the caller builds its own objects from them, so no intermediate object per match is made.
 */
export interface TextMatches {
  /** Matches found (at most `limit`). */
  readonly count: number;
  readonly truncated: boolean;
  readonly searchedFiles: number;
  /** Paths found changed on disk since the index last saw them (their matches are from the new text). */
  readonly changed: string[];
  /** The paths with matches, each once, in file order. */
  paths(): string[];
  /** One value per match, in file order: `make(path, line, column, text)` with 1-based line and column. */
  build<T>(make: (path: string, line: number, column: number, text: string) => T): T[];
}

/** What a search returns: matches, or an error value (bad pattern, time limit). */
export type TextSearchResult = TextMatches | { readonly error: string };

/** Joins the workers' matches in file order (the shares are contiguous and in order), up to `limit`. */
export function mergeMatches(files: readonly SearchFile[], replies: readonly WorkerMatches[], limit: number): TextMatches {
  const changed: string[] = [];
  let searchedFiles = 0;
  let total = 0;
  for (const reply of replies) {
    searchedFiles += reply.searchedFiles;
    total += reply.count;
    for (const index of reply.changed) changed.push(files[index].path);
  }
  const count = Math.min(total, limit);
  return {
    count,
    truncated: total > limit,
    searchedFiles,
    changed,
    paths() {
      const paths: string[] = [];
      let last = -1;
      let left = count;
      for (const { meta, count: replyCount } of replies) {
        for (let match = 0; match < replyCount && left > 0; match++, left--) {
          const file = meta[match * STRIDE];
          if (file !== last) paths.push(files[file].path);
          last = file;
        }
      }
      return paths;
    },
    build<T>(make: (path: string, line: number, column: number, text: string) => T): T[] {
      const built: T[] = new Array(count);
      let seen = 0;
      for (const { meta, texts, count: replyCount } of replies) {
        let lastFile = -1;
        let path = "";
        for (let match = 0; match < replyCount && seen < count; match++, seen++) {
          const at = match * STRIDE;
          if (meta[at] !== lastFile) {
            lastFile = meta[at];
            path = files[lastFile].path;
          }
          built[seen] = make(path, meta[at + 1], meta[at + 2], texts[match]!);
        }
      }
      return built;
    },
  };
}
