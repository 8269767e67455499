// How one file's text is scanned for a search, line by line, into flat match arrays: the
// same code in the search workers and in a first search on the main thread, so both give
// the same lines. It imports nothing of the project but leaf modules, so the worker can
// load it from source (.ts) and from the build (.js).
import path from "node:path";
import type { LineRegex } from "./line-regex.ts";
import type { LineTable } from "./line-table.ts";
import { literalFinder, type Finder } from "./literal-finder.ts";
import { MATCH_STRIDE as STRIDE } from "./match-layout.ts";

/** A file's text as a scan needs it. */
export interface ScannedText {
  readonly text: string;
  /**
   * The line starts scans have found, for a text kept between searches: each scan records
   * those it passes, and finds lines already passed in the table. Without it a scan finds
   * a hit's line around the hit, and counts lines only up to its matches.
   */
  readonly lines?: LineTable;
}

/** A file as a search reads it: its path from the repository root (with `/`), and the size and mtime the index knows. */
export interface SearchFile {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** When the list knows it (a walk's files, the disk cache's): a symlink read through must lead to a file with this ctime too. */
  readonly ctimeMs?: number;
  /**
   * Which file the list means, when it knows (a walk's files): its device and inode number. A read that finds the
   * path leads to another file (a symlink, or a folder on the way swapped for one, since the walk) reads nothing of it.
   */
  readonly dev?: number;
  readonly ino?: number;
}

/** Where a file of the repository at `root` (a real absolute path) is: joined by hand, which is much cheaper than `path.join` for 50,000 files. */
export function pathUnder(root: string, relative: string): string {
  return (root.endsWith(path.sep) ? root : root + path.sep) + (path.sep === "/" ? relative : relative.split("/").join(path.sep));
}

/** What a scan looks for: a literal (`find`), a line pattern, or a pattern run only on the lines that hold its literal. */
export interface ScanPlan {
  readonly find?: Finder;
  readonly pattern?: RegExp;
}

const LINE_TEXT_MAX = 300;

/** Matches as flat arrays: `meta` holds (file index, line, column) per match, `texts` the lines. */
export class MatchSink {
  meta: Int32Array;
  readonly texts: string[] = emptyStrings();
  count = 0;
  readonly #progress: (() => void) | undefined;

  /**
   * @param progress - called every 256 matches (a worker's heartbeat, so a file with many matches is not taken for a stall)
   * @param expected - the matches to make room for at once (it grows past them as needed)
   */
  constructor(progress?: () => void, expected = 256) {
    this.#progress = progress;
    this.meta = new Int32Array(STRIDE * Math.max(1, expected));
  }

  push(fileIndex: number, line: number, column: number, text: string): void {
    const at = this.count * STRIDE;
    if (at + STRIDE > this.meta.length) {
      const grown = new Int32Array(this.meta.length * 2);
      grown.set(this.meta);
      this.meta = grown;
    }
    this.meta[at] = fileIndex;
    this.meta[at + 1] = line;
    this.meta[at + 2] = column;
    this.texts.push(text);
    if ((++this.count & 255) === 0) this.#progress?.();
  }

  /** The matches as they cross threads: `meta` trimmed to its matches (a copy, so it can be transferred), and the lines. */
  result(): { meta: Int32Array; texts: string[]; count: number } {
    return { meta: this.meta.subarray(0, this.count * STRIDE).slice(), texts: this.texts, count: this.count };
  }
}

// An empty array made to hold strings: an empty literal starts as an array of small integers, and its first
// string changes its map, which throws away the code the engine optimised for the sinks before (in the workers,
// at every search: a repeated search's first scans then ran unoptimised).
function emptyStrings(): string[] {
  const strings = [""];
  strings.pop();
  return strings;
}

/** The regular expression a search runs, from its line-oriented pattern (see line-regex.ts). */
export function compileLinePattern(pattern: LineRegex, linear: boolean, global: boolean): RegExp {
  // The linear engine has no `i` flag: it runs the pattern with letters spelled in both cases.
  const flags = (global ? pattern.flags : pattern.flags.replace(/[gm]/g, "")).replace(linear ? "i" : "", "") + (linear ? "l" : "");
  try {
    return new RegExp(linear ? pattern.foldedSource : pattern.source, flags);
  } catch (error) {
    if (linear) throw new Error(`this pattern cannot run in linear time (for instance a counted repetition such as a{1000} is too large); simplify it`);
    throw error;
  }
}


/** The scan plan of a search: its literal (a literal query, or the literal every match of the pattern holds) and its pattern. */
export function scanPlan(query: string, caseSensitive: boolean, pattern: RegExp | undefined, patternLiteral: string | undefined): ScanPlan {
  const literal = pattern ? patternLiteral : query;
  return { ...(literal ? { find: literalFinder(literal, caseSensitive) } : {}), ...(pattern ? { pattern } : {}) };
}

/** Pushes the first match of each line of one text, while the sink holds fewer than `wanted`. */
export function scanText(fileIndex: number, entry: ScannedText, plan: ScanPlan, sink: MatchSink, wanted: number): void {
  const { find, pattern } = plan;
  const text = entry.text;
  if (pattern && find) {
    // The pattern runs only on the lines that hold its literal: a line without it cannot match.
    collectLineMatches(fileIndex, entry, sink, wanted, (from) => find(text, from), (lineStart, lineEnd) => {
      pattern.lastIndex = 0;
      const match = pattern.exec(text.slice(lineStart, lineEnd));
      return match ? lineStart + match.index : -1;
    });
  } else if (pattern) {
    collectLineMatches(fileIndex, entry, sink, wanted, (from) => {
      pattern.lastIndex = from;
      return pattern.exec(text)?.index ?? -1;
    });
  } else if (find) {
    collectLineMatches(fileIndex, entry, sink, wanted, (from) => find(text, from));
  }
}

// Pushes the first match of each line: `find(from)` is the next match position at or after `from`, or -1;
// `inLine`, when given, turns a hit into the line's match position (or -1: the line does not match).
// The patterns cannot match a line feed (see line-regex.ts), so a match lies within its line.
function collectLineMatches(
  fileIndex: number,
  entry: ScannedText,
  sink: MatchSink,
  wanted: number,
  find: (from: number) => number,
  inLine?: (lineStart: number, lineEnd: number) => number,
): void {
  const text = entry.text;
  // A text ending in a line feed has no empty last line to match.
  const end = text.endsWith("\n") ? text.length - 1 : text.length;
  let hit = text.length === 0 ? -1 : find(0);
  if (hit === -1) return;
  const table = entry.lines;
  let line = 0;
  // Without line starts: the offset up to which lines were counted (`line` is the line there).
  let counted = 0;
  while (hit !== -1 && hit <= end && sink.count < wanted) {
    let lineStart: number;
    let lineEnd: number;
    // A line the table covers is found in it: a literal's hit is a match, so the table reaches it first. A
    // pattern's hit is found around the hit unless covered, and the table reaches it only if the line
    // matches (the pattern's literal can be on many lines the pattern does not match).
    if (table && !inLine) table.reach(hit);
    const covered = table?.covers(hit) === true;
    if (covered) {
      line = table!.lineAt(hit, line);
      lineStart = table!.start(line);
      lineEnd = table!.end(line);
    } else {
      lineStart = hit === 0 ? 0 : text.lastIndexOf("\n", hit - 1) + 1;
      lineEnd = text.indexOf("\n", hit);
      if (lineEnd === -1) lineEnd = text.length;
    }
    const position = inLine ? inLine(lineStart, lineEnd) : hit;
    if (position !== -1) {
      if (table) {
        if (!covered) {
          table.reach(hit);
          line = table.lineAt(hit, line);
        }
      } else {
        line += newlinesBetween(text, counted, lineStart);
        counted = lineStart;
      }
      sink.push(fileIndex, line + 1, position - lineStart + 1, lineText(text, lineStart, lineEnd, position));
    }
    if (lineEnd >= end) break;
    hit = find(lineEnd + 1);
  }
}

// The line feeds in text[from, to).
function newlinesBetween(text: string, from: number, to: number): number {
  let count = 0;
  for (let newline = text.indexOf("\n", from); newline !== -1 && newline < to; newline = text.indexOf("\n", newline + 1)) count++;
  return count;
}

/**
 * The text a match shows of its line: the line without a trailing carriage return, or, when longer than
 * 300 characters, the 300 around the match with `…` where it was cut.
 */
export function lineText(text: string, lineStart: number, lineEnd: number, position: number): string {
  let end = lineEnd;
  if (end > lineStart && text.charCodeAt(end - 1) === 13) end--;
  if (end - lineStart <= LINE_TEXT_MAX) return text.slice(lineStart, end);
  let from = Math.max(lineStart, position - LINE_TEXT_MAX / 3);
  let to = Math.min(end, from + LINE_TEXT_MAX);
  // Never between the two halves of a character beyond the Basic Multilingual Plane (an emoji, say).
  if (from > lineStart && isLowSurrogate(text.charCodeAt(from))) from++;
  if (to < end && isLowSurrogate(text.charCodeAt(to))) to--;
  return `${from > lineStart ? "…" : ""}${text.slice(from, to)}${to < end ? "…" : ""}`;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
