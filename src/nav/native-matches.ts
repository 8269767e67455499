// The matches of a literal found by the native addon's scan (native-first-search.ts), made straight
// from its answer: no flat arrays of matches in between, since a literal's every hit is a match. A
// first search runs in a new process, where each pass over tens of thousands of matches runs in
// code not yet optimised; this makes one.
import { NATIVE_FILE_STRIDE as FILE_STRIDE, NATIVE_HIT_STRIDE as STRIDE, type NativeScanReply } from "./native-addon.ts";
import type { TextMatches } from "./search-matches.ts";
import { lineText, type SearchFile } from "./text-scan.ts";

/**
 * The first `limit` hits of a native literal scan as a search's matches, in file order, each at the
 * literal; or `null` when a file before them was taken by no thread (none could start: the caller
 * scans it otherwise). The same matches as the JavaScript scan gives, line for line.
 *
 * @param indexes - for each path the scan was given, its index in `files`
 */
export function nativeLiteralMatches(files: readonly SearchFile[], indexes: readonly number[], reply: NativeScanReply, limit: number): TextMatches | null {
  const counts = reply.files;
  // Per file with matches: its index in `files`, its first hit and how many of its hits are kept.
  const runs: number[] = [];
  const changed: string[] = [];
  let searchedFiles = 0;
  let total = 0;
  let hit = 0;
  // Past `limit + 1` hits the answer is known to be cut, as when the workers send `limit + 1`.
  for (let at = 0; at < indexes.length && total <= limit; at++) {
    const length = counts[at * FILE_STRIDE]!;
    if (length === -2) return null;
    const hits = counts[at * FILE_STRIDE + 2]!;
    const first = hit;
    hit += hits;
    if (length === -1) continue;
    const index = indexes[at]!;
    if (length !== files[index]!.size) changed.push(files[index]!.path);
    if (counts[at * FILE_STRIDE + 1] === 1) continue;
    searchedFiles++;
    if (hits === 0) continue;
    const kept = Math.min(hits, limit + 1 - total);
    runs.push(index, first, kept);
    total += kept;
  }
  const count = Math.min(total, limit);
  // The runs of the first `count` hits alone (the hit past `limit` only says the answer is cut).
  if (total > count) {
    const last = runs.length - 3;
    runs[last + 2]! -= total - count;
    if (runs[last + 2] === 0) runs.length = last;
  }
  const bytes = Buffer.from(reply.bytes);
  return {
    count,
    truncated: total > limit,
    searchedFiles,
    changed,
    paths() {
      const paths: string[] = [];
      for (let run = 0; run < runs.length; run += 3) paths.push(files[runs[run]!]!.path);
      return paths;
    },
    build<T>(make: (path: string, line: number, column: number, text: string) => T): T[] {
      const hits = reply.hits;
      // The ASCII lines are slices of one string (few objects for the collector to copy, none of them large).
      const latin1 = bytes.toString("latin1");
      const built: T[] = new Array(count);
      let made = 0;
      for (let run = 0; run < runs.length; run += 3) {
        const path = files[runs[run]!]!.path;
        const end = runs[run + 1]! + runs[run + 2]!;
        for (let one = runs[run + 1]!; one < end; one++) {
          const at = one * STRIDE;
          const lineOffset = hits[at + 3]!;
          const lineEnd = lineOffset + hits[at + 4]!;
          let line: string;
          let position: number;
          if (hits[at + 5] === 1) {
            line = latin1.slice(lineOffset, lineEnd);
            position = hits[at + 2]!;
          } else {
            line = bytes.toString("utf8", lineOffset, lineEnd);
            // The literal's position in characters: a UTF-8 prefix is shorter as text than as bytes.
            position = bytes.toString("utf8", lineOffset, lineOffset + hits[at + 2]!).length;
          }
          built[made++] = make(path, hits[at + 1]!, position + 1, lineText(line, 0, line.length, position));
        }
      }
      return built;
    },
  };
}
