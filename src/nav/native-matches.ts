// The matches of a search found by the native addon's scan (native-first-search.ts), made straight
// from its answer: a literal's every hit is a match; a pattern runs over all the lines hit at once
// (they come one after the other, each followed by a line feed) and keeps where it matched. No flat
// arrays of matches in between: a first search runs in a new process, where each pass over tens of
// thousands of matches runs in code not yet optimised.
import { NATIVE_FILE_STRIDE as FILE_STRIDE, NATIVE_HIT_STRIDE as STRIDE, NATIVE_NAME, type NativeScanReply } from "./native-addon.ts";
import type { TextMatches } from "./search-matches.ts";
import { lineText, type SearchFile } from "./text-scan.ts";
import { entryStatAt, entryStatsOf, type EntryStat } from "./file-stats.ts";
import { isListedVersion } from "./file-read.ts";

// Values per run of one file's matches in `runs`: the file's index, the first match, how many, and whether they are named.
const RUN = 4;

/**
 * The first `limit` matches of a native scan as a search's, in file order: each hit of a literal, at
 * the literal; with `pattern` (a line pattern, see line-regex.ts, with the `g` flag), the hits whose
 * line it matches, at its first match. `null` when a file before them was taken by no thread (none
 * could start: the caller scans it otherwise). The same matches as the JavaScript scan gives, line for line;
 * `build` names each match's symbol where the scan named it from the disk cache's spans (see `unnamedFiles`).
 *
 * @param indexes - for each path the scan was given, its index in `files`
 */
export function nativeMatches(files: readonly SearchFile[], indexes: ArrayLike<number>, reply: NativeScanReply, limit: number, pattern?: RegExp): TextMatches | null {
  const counts = reply.files;
  const bytes = Buffer.from(reply.bytes);
  // The ASCII lines are slices of one string (few objects for the collector to copy, none of them large).
  const latin1 = bytes.toString("latin1");
  // A pattern's matches: the hit, and the match's position in the line (characters), for the first `limit + 1`.
  const chosen = pattern ? matchLines(pattern, reply.hits, bytes, latin1, limit + 1) : undefined;
  let next = 0;
  // Per file with matches: its index in `files`, where its matches are in `chosen` (a pattern's) or `hits` (a literal's),
  // and 1 when the scan named their symbols (not for a file read at another size: its spans are of the version before).
  const runs: number[] = [];
  const changed: string[] = [];
  const unread: string[] = [];
  let searchedFiles = 0;
  let total = 0;
  let hit = 0;
  // Past `limit + 1` matches the answer is known to be cut, as when the workers send `limit + 1`.
  for (let at = 0; at < indexes.length && total <= limit; at++) {
    const length = counts[at * FILE_STRIDE]!;
    // Only stated (see the scan's `read`): not one to search.
    if (length === -3) continue;
    if (length === -2) return null;
    const hits = counts[at * FILE_STRIDE + 2]!;
    const first = hit;
    hit += hits;
    if (length === -1) continue;
    const index = indexes[at]!;
    // The path led to another file than the one listed (the scan read nothing of it), or the scan read through a
    // symlink to a file that is not known to be the one listed (it may have become a link to a refused file since):
    // it is reported changed, for the rule to judge, and nothing of it is kept.
    if (length === -4 || (counts[at * FILE_STRIDE + 3] === 1 && files[index]!.ino === undefined && !listedAs(reply.stats, at, files[index]!))) {
      changed.push(files[index]!.path);
      unread.push(files[index]!.path);
      continue;
    }
    const sameSize = length === files[index]!.size;
    if (!sameSize) changed.push(files[index]!.path);
    if (counts[at * FILE_STRIDE + 1] === 1) continue;
    searchedFiles++;
    if (hits === 0) continue;
    const named = sameSize && reply.hits[first * STRIDE + 8] !== NATIVE_NAME.unnamed ? 1 : 0;
    if (!chosen) {
      const kept = Math.min(hits, limit + 1 - total);
      runs.push(index, first, kept, named);
      total += kept;
      continue;
    }
    // This file's matches come next (a file's hits are together, in the files' order).
    const from = next;
    while (next * 2 < chosen.length && chosen[next * 2]! < first + hits) next++;
    if (next > from) runs.push(index, from, next - from, named);
    total += next - from;
  }
  const count = Math.min(total, limit);
  // The runs of the first `count` matches alone (the match past `limit` only says the answer is cut).
  if (total > count) {
    const last = runs.length - RUN;
    runs[last + 2]! -= total - count;
    if (runs[last + 2] === 0) runs.length = last;
  }
  return {
    count,
    truncated: total > limit,
    searchedFiles,
    changed,
    unread,
    files() {
      const matched: SearchFile[] = [];
      for (let run = 0; run < runs.length; run += RUN) matched.push(files[runs[run]!]!);
      return matched;
    },
    entryStats() {
      if (!reply.stats) return undefined;
      const stated = entryStatsOf(reply.stats);
      const byFile: (EntryStat | undefined)[] = new Array(files.length);
      // Not a path the scan read through a link, nor one that led to another file: their stats are not the path's own,
      // and the walk states those itself.
      for (let at = 0; at < indexes.length; at++) byFile[indexes[at]!] = counts[at * FILE_STRIDE] === -4 || counts[at * FILE_STRIDE + 3] === 1 ? undefined : stated[at];
      return byFile;
    },
    unnamedFiles() {
      const unnamed: SearchFile[] = [];
      for (let run = 0; run < runs.length; run += RUN) if (runs[run + 3] === 0) unnamed.push(files[runs[run]!]!);
      return unnamed;
    },
    build<T>(make: (path: string, line: number, column: number, text: string, symbol?: string | null) => T): T[] {
      const hits = reply.hits;
      const built: T[] = new Array(count);
      const names = Buffer.from(reply.names);
      // The ASCII names are slices of one string, as the lines are.
      const namesLatin1 = names.toString("latin1");
      // The last name made, and where it was (an empty name has the offset of the one after it): a run of matches
      // in one symbol shares the string.
      let nameAt = -1;
      let nameLength = -1;
      let name: string | null | undefined;
      // One loop over the matches, not one per file inside one over the files: code the engine optimises for an
      // inner loop while the outer one runs is thrown away each time the inner one ends (once per file).
      let run = -RUN;
      let next = 0;
      let end = 0;
      let path = "";
      let named = 0;
      for (let made = 0; made < count; made++, next++) {
        while (next === end) {
          run += RUN;
          path = files[runs[run]!]!.path;
          next = runs[run + 1]!;
          end = next + runs[run + 2]!;
          named = runs[run + 3]!;
        }
        const one = chosen ? chosen[next * 2]! : next;
        const at = one * STRIDE;
        const lineOffset = hits[at + 3]!;
        const lineEnd = lineOffset + hits[at + 4]!;
        const ascii = hits[at + 5] === 1;
        const line = ascii ? latin1.slice(lineOffset, lineEnd) : bytes.toString("utf8", lineOffset, lineEnd);
        // A literal's position in characters: a UTF-8 prefix is shorter as text than as bytes.
        const position = chosen ? chosen[next * 2 + 1]! : ascii ? hits[at + 2]! : bytes.toString("utf8", lineOffset, lineOffset + hits[at + 2]!).length;
        let symbol: string | null | undefined;
        if (named === 1) {
          const kind = hits[at + 8]!;
          if (kind === NATIVE_NAME.noSymbol) symbol = null;
          else {
            const offset = hits[at + 6]!;
            const length = hits[at + 7]!;
            if (offset !== nameAt || length !== nameLength) {
              nameAt = offset;
              nameLength = length;
              name = kind === NATIVE_NAME.ascii ? namesLatin1.slice(offset, offset + length) : names.toString("utf8", offset, offset + length);
            }
            symbol = name;
          }
        }
        built[made] = make(path, hits[at + 1]!, position + 1, lineText(line, 0, line.length, position), symbol);
      }
      return built;
    },
  };
}

// Whether the scan's stats of path `at` are the listed file's version.
function listedAs(stats: Float64Array | undefined, at: number, file: SearchFile): boolean {
  const stat = stats && entryStatAt(stats, at);
  return stat !== undefined && isListedVersion(stat, file);
}

/**
 * Where a line pattern first matches each line hit, for the first `wanted` lines it matches: (hit, position
 * in characters) pairs, in the hits' order. The pattern runs over all the lines at once, read as Latin-1,
 * so it is called once per match rather than once per line (a pattern's literal is on many more lines
 * than it matches); a line beyond ASCII, which Latin-1 does not read as its text, is decoded and matched
 * alone. A line pattern never matches a line feed, so a match found lies within one line (an empty one
 * at a line's end is that line's: the next starts after the line feed), and matching the lines together
 * finds what matching each alone finds.
 */
function matchLines(pattern: RegExp, hits: Int32Array, bytes: Buffer, text: string, wanted: number): number[] {
  const chosen: number[] = [];
  const count = hits.length / STRIDE;
  // Where the pattern matches next in the text, from the line it was last run from (-1: not known).
  let next = -1;
  // One loop over the lines, not one inside another: code the engine optimises for an inner loop is thrown away each time it ends.
  for (let one = 0; one < count && chosen.length < wanted * 2; one++) {
    const lineOffset = hits[one * STRIDE + 3]!;
    const lineEnd = lineOffset + hits[one * STRIDE + 4]!;
    if (hits[one * STRIDE + 5] !== 1) {
      pattern.lastIndex = 0;
      const alone = pattern.exec(bytes.toString("utf8", lineOffset, lineEnd));
      if (alone) chosen.push(one, alone.index);
      continue;
    }
    if (next < lineOffset) {
      pattern.lastIndex = lineOffset;
      next = pattern.exec(text)?.index ?? Number.MAX_SAFE_INTEGER;
    }
    // A match at or before the line's end is this line's (an empty one at its end too: the next line starts after the line feed).
    if (next <= lineEnd) {
      chosen.push(one, next - lineOffset);
      next = -1;
    }
  }
  return chosen;
}
