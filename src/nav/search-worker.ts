// One of the text-search workers: it searches its share of the files (reading
// each on first use and keeping the texts in memory between searches) and can
// be terminated to stop a runaway pattern. It is loaded by file URL, both from
// source (.ts) and from the build (.js), so it imports only modules that stand alone.
import fs from "node:fs";
import v8 from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { globMatcher, looksBinary } from "./file-rules.ts";
import { MATCH_STRIDE as STRIDE } from "./match-layout.ts";
import type { SearchFile, WorkerMatches, WorkerSearchRequest } from "./text-search.ts";

// Makes the `l` flag (V8's linear-time regular expression engine) available.
// The flag is process-wide; it only adds a RegExp flag and changes no existing behaviour.
v8.setFlagsFromString("--enable-experimental-regexp-engine");

interface CachedText {
  readonly size: number;
  readonly mtimeMs: number;
  // null when the file is binary or unreadable
  readonly text: string | null;
  /** Where each line starts, made on the first search that matches in the file and kept with the text. */
  lineStarts?: Int32Array;
}

const LINE_TEXT_MAX = 300;
const { heartbeat, cacheBudgetChars } = workerData as { heartbeat: Int32Array; cacheBudgetChars: number };

let files: readonly SearchFile[] = [];
let base = 0;
const texts = new Map<string, CachedText>();
let cachedChars = 0;

parentPort?.on("message", (request: WorkerSearchRequest) => {
  try {
    if (request.files) {
      files = request.files;
      base = request.base ?? 0;
    }
    const result = request.names ? { hits: searchNames(request, request.names) } : search(request);
    parentPort?.postMessage({ id: request.id, ...result }, "meta" in result ? [result.meta.buffer as ArrayBuffer] : []);
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});

// Matches as flat arrays: `meta` holds (file index, line, column, end of its text) per match, `texts`
// the lines, joined with "\n" when sent; the receiver slices each line out by its end (no split, no copy).
class MatchSink {
  meta = new Int32Array(STRIDE * 256);
  readonly texts: string[] = [];
  count = 0;
  #textEnd = 0;
  push(fileIndex: number, line: number, column: number, text: string): void {
    const at = this.count * STRIDE;
    if (at + STRIDE > this.meta.length) {
      const grown = new Int32Array(this.meta.length * 2);
      grown.set(this.meta);
      this.meta = grown;
    }
    this.#textEnd += (this.count === 0 ? 0 : 1) + text.length;
    this.meta[at] = fileIndex;
    this.meta[at + 1] = line;
    this.meta[at + 2] = column;
    this.meta[at + 3] = this.#textEnd;
    this.texts.push(text);
    // A file with many matches still shows progress, so it is not taken for a stalled pattern.
    if ((++this.count & 255) === 0) Atomics.add(heartbeat, 0, 1);
  }
}

function compile(request: WorkerSearchRequest, global: boolean): RegExp {
  const pattern = request.pattern!;
  // The linear engine has no `i` flag: it runs the pattern with letters spelled in both cases.
  const flags = (global ? pattern.flags : pattern.flags.replace(/[gm]/g, "")).replace(request.linear ? "i" : "", "") + (request.linear ? "l" : "");
  try {
    return new RegExp(request.linear ? pattern.foldedSource : pattern.source, flags);
  } catch (error) {
    if (request.linear) throw new Error(`this pattern cannot run in linear time (for instance a counted repetition such as a{1000} is too large); simplify it`);
    throw error;
  }
}

function search(request: WorkerSearchRequest): WorkerMatches {
  const sink = new MatchSink();
  const wanted = request.limit + 1;
  const isMatch = request.glob ? globMatcher(request.glob) : undefined;
  const pattern = request.pattern ? compile(request, true) : undefined;
  // A literal query, or the literal every match of the pattern contains (found first).
  const literal = request.pattern ? request.pattern.literal : request.query;
  const find = literal ? literalFinder(literal, request.caseSensitive) : undefined;
  const changed: number[] = [];
  let searchedFiles = 0;
  for (let index = 0; index < files.length && sink.count < wanted; index++) {
    const file = files[index];
    Atomics.add(heartbeat, 0, 1);
    if (file.size > request.maxFileBytes) continue;
    if (isMatch && !isMatch(file.path)) continue;
    const entry = load(file, base + index, changed);
    if (entry.text === null) continue;
    searchedFiles++;
    const fileIndex = base + index;
    if (pattern && find) searchRegexAfterLiteral(fileIndex, entry, find, pattern, sink, wanted);
    else if (pattern) searchRegex(fileIndex, entry, pattern, sink, wanted);
    else if (find) collectLineMatches(fileIndex, entry, sink, wanted, (from) => find(entry.text!, from));
  }
  return { meta: sink.meta.subarray(0, sink.count * STRIDE).slice(), texts: sink.texts.join("\n"), count: sink.count, searchedFiles, changed };
}

/** Where `literal` next occurs in a text at or after `from`, or -1. */
type Finder = (text: string, from: number) => number;

// A literal is found with indexOf, or, ignoring case, with a regular expression of it with the `i`
// flag: as fast on V8 as indexOf over a lower-cased copy (which would double the memory kept),
// and with JavaScript's case-insensitive matching (σ, ς and Σ match each other, as with ripgrep's -i).
function literalFinder(literal: string, caseSensitive: boolean): Finder {
  if (caseSensitive) return (text, from) => text.indexOf(literal, from);
  const pattern = new RegExp(escapeRegExp(literal), "gi");
  return (text, from) => {
    pattern.lastIndex = from;
    return pattern.exec(text)?.index ?? -1;
  };
}

function searchNames(request: WorkerSearchRequest, names: readonly string[]): number[] {
  const hits: number[] = [];
  const pattern = request.pattern ? compile(request, false) : undefined;
  const needle = request.caseSensitive ? request.query : request.query.toLowerCase();
  for (let index = 0; index < names.length && hits.length <= request.limit; index++) {
    if ((index & 1023) === 0) Atomics.add(heartbeat, 0, 1);
    const name = names[index];
    if (pattern ? pattern.test(name) : (request.caseSensitive ? name : name.toLowerCase()).includes(needle)) hits.push(index);
  }
  return hits;
}

// The text of a file, from memory while its size and mtime are those of the index; a file whose
// size on disk differs from the index's is read anew and reported in `changed`.
function load(file: SearchFile, fileIndex: number, changed: number[]): CachedText {
  const cached = texts.get(file.path);
  if (cached && cached.size === file.size && cached.mtimeMs === file.mtimeMs) return cached;
  let text: string | null = null;
  try {
    const buffer = fs.readFileSync(file.absolute);
    if (buffer.length !== file.size) changed.push(fileIndex);
    text = looksBinary(buffer) ? null : buffer.toString("utf8");
  } catch {
    text = null;
  }
  const entry: CachedText = { size: file.size, mtimeMs: file.mtimeMs, text };
  if (cached) {
    cachedChars -= cached.text?.length ?? 0;
    texts.delete(file.path);
  }
  if (cachedChars + (text?.length ?? 0) <= cacheBudgetChars) {
    texts.set(file.path, entry);
    cachedChars += text?.length ?? 0;
  }
  return entry;
}

function searchRegex(fileIndex: number, entry: CachedText, pattern: RegExp, sink: MatchSink, wanted: number): void {
  const text = entry.text!;
  collectLineMatches(fileIndex, entry, sink, wanted, (from) => {
    pattern.lastIndex = from;
    return pattern.exec(text)?.index ?? -1;
  });
}

// Finds the lines that hold the pattern's literal (`find`), and runs the pattern on each of
// those lines alone: a line without the literal cannot match.
function searchRegexAfterLiteral(fileIndex: number, entry: CachedText, find: Finder, pattern: RegExp, sink: MatchSink, wanted: number): void {
  const text = entry.text!;
  collectLineMatches(fileIndex, entry, sink, wanted, (from) => find(text, from), (lineStart, lineEnd) => {
    pattern.lastIndex = 0;
    const match = pattern.exec(text.slice(lineStart, lineEnd));
    return match ? lineStart + match.index : -1;
  });
}

// Pushes the first match of each line: `find(from)` is the next match position at or after `from`, or -1;
// `inLine`, when given, turns a hit into the line's match position (or -1: the line does not match).
// The patterns cannot match a line feed (see line-regex.ts), so a match lies within its line.
function collectLineMatches(
  fileIndex: number,
  entry: CachedText,
  sink: MatchSink,
  wanted: number,
  find: (from: number) => number,
  inLine?: (lineStart: number, lineEnd: number) => number,
): void {
  const text = entry.text!;
  // A text ending in a line feed has no empty last line to match.
  const end = text.endsWith("\n") ? text.length - 1 : text.length;
  let hit = text.length === 0 ? -1 : find(0);
  if (hit === -1) return;
  const starts = (entry.lineStarts ??= lineStartsOf(text));
  let line = 0;
  while (hit !== -1 && hit <= end && sink.count < wanted) {
    line = lineAt(starts, hit, line);
    const lineStart = starts[line]!;
    const lineEnd = line + 1 < starts.length ? starts[line + 1]! - 1 : text.length;
    const position = inLine ? inLine(lineStart, lineEnd) : hit;
    if (position !== -1) sink.push(fileIndex, line + 1, position - lineStart + 1, lineText(text, lineStart, lineEnd, position));
    if (lineEnd >= end) break;
    hit = find(lineEnd + 1);
  }
}

/** The offset where each line starts (the first is 0). */
function lineStartsOf(text: string): Int32Array {
  let count = 1;
  for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", newline + 1)) count++;
  const starts = new Int32Array(count);
  let line = 1;
  for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", newline + 1)) starts[line++] = newline + 1;
  return starts;
}

/** The 0-based line holding `position`, searching forward from line `from` (matches come in order, usually a few lines apart). */
function lineAt(starts: Int32Array, position: number, from: number): number {
  // Gallop forward from `from`, then search the last step's range.
  let step = 1;
  while (from + step < starts.length && starts[from + step]! <= position) step *= 2;
  let low = from + (step >> 1);
  let high = Math.min(from + step, starts.length) - 1;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (starts[middle]! <= position) low = middle;
    else high = middle - 1;
  }
  return low;
}

function lineText(text: string, lineStart: number, lineEnd: number, position: number): string {
  let end = lineEnd;
  if (end > lineStart && text.charCodeAt(end - 1) === 13) end--;
  if (end - lineStart <= LINE_TEXT_MAX) return text.slice(lineStart, end);
  const from = Math.max(lineStart, position - LINE_TEXT_MAX / 3);
  const to = Math.min(end, from + LINE_TEXT_MAX);
  return `${from > lineStart ? "…" : ""}${text.slice(from, to)}${to < end ? "…" : ""}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
