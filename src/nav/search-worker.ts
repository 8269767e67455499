// Runs text searches off the main thread so that a runaway regular expression
// can be stopped by terminating this worker. It is loaded by file URL, both from
// source (.ts) and from the build (.js), so it imports only modules that stand alone.
import fs from "node:fs";
import { parentPort } from "node:worker_threads";
import { globMatcher, looksBinary } from "./file-rules.ts";
import type { SearchFile, TextSearchRequest } from "./text-search.ts";

interface SearchRequest extends TextSearchRequest {
  readonly id: number;
  readonly files?: SearchFile[];
  // When present, test these names instead of file contents and answer with the indexes that match.
  readonly names?: string[];
}

interface RawMatch {
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly text: string;
}

interface CachedText {
  readonly size: number;
  readonly mtimeMs: number;
  // null when the file is binary
  readonly text: string | null;
  lower?: string | null;
}

const CACHE_BUDGET_CHARS = 512 * 1024 * 1024;
const LINE_TEXT_MAX = 300;

let files: SearchFile[] = [];
const texts = new Map<string, CachedText>();
let cachedChars = 0;

parentPort?.on("message", (request: SearchRequest) => {
  try {
    if (request.files) files = request.files;
    const result = request.names ? { hits: searchNames(request, request.names) } : search(request);
    parentPort?.postMessage({ id: request.id, ...result });
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});

function search(request: SearchRequest): { matches: RawMatch[]; truncated: boolean; searchedFiles: number } {
  const matches: RawMatch[] = [];
  const wanted = request.limit + 1;
  const isMatch = request.glob ? globMatcher(request.glob) : undefined;
  const pattern = request.regex
    ? new RegExp(request.query, request.caseSensitive ? "gm" : "gim")
    : undefined;
  const lowerQuery = request.query.toLowerCase();
  let searchedFiles = 0;
  for (const file of files) {
    if (matches.length >= wanted) break;
    if (file.size > request.maxFileBytes) continue;
    if (isMatch && !isMatch(file.path)) continue;
    const entry = load(file);
    if (entry.text === null) continue;
    searchedFiles++;
    if (pattern) {
      searchRegex(file.path, entry.text, pattern, matches, wanted);
    } else if (request.caseSensitive) {
      searchLiteral(file.path, entry.text, entry.text, request.query, matches, wanted);
    } else {
      if (entry.lower === undefined) {
        const lower = entry.text.toLowerCase();
        // Lower-casing can change the length of some characters; fall back to a regex then.
        entry.lower = lower.length === entry.text.length ? lower : null;
        if (entry.lower) cachedChars += lower.length;
      }
      if (entry.lower !== null && lowerQuery.length === request.query.length) {
        searchLiteral(file.path, entry.text, entry.lower, lowerQuery, matches, wanted);
      } else {
        searchRegex(file.path, entry.text, new RegExp(escapeRegExp(request.query), "gim"), matches, wanted);
      }
    }
  }
  const truncated = matches.length > request.limit;
  return { matches: truncated ? matches.slice(0, request.limit) : matches, truncated, searchedFiles };
}

function searchNames(request: SearchRequest, names: string[]): number[] {
  const hits: number[] = [];
  const pattern = request.regex ? new RegExp(request.query, request.caseSensitive ? "" : "i") : undefined;
  const needle = request.caseSensitive ? request.query : request.query.toLowerCase();
  for (let index = 0; index < names.length && hits.length <= request.limit; index++) {
    const name = names[index];
    if (pattern ? pattern.test(name) : (request.caseSensitive ? name : name.toLowerCase()).includes(needle)) hits.push(index);
  }
  return hits;
}

function load(file: SearchFile): CachedText {
  const cached = texts.get(file.path);
  if (cached && cached.size === file.size && cached.mtimeMs === file.mtimeMs) return cached;
  let text: string | null = null;
  try {
    const buffer = fs.readFileSync(file.absolute);
    text = looksBinary(buffer) ? null : buffer.toString("utf8");
  } catch {
    text = null;
  }
  const entry: CachedText = { size: file.size, mtimeMs: file.mtimeMs, text };
  if (cached) {
    cachedChars -= (cached.text?.length ?? 0) + (cached.lower?.length ?? 0);
    texts.delete(file.path);
  }
  if (cachedChars + (text?.length ?? 0) <= CACHE_BUDGET_CHARS) {
    texts.set(file.path, entry);
    cachedChars += text?.length ?? 0;
  }
  return entry;
}

// Finds `needle` in `haystack` (the text, or its lower-cased copy of equal length); one match per line.
function searchLiteral(path: string, text: string, haystack: string, needle: string, matches: RawMatch[], wanted: number): void {
  if (needle.length === 0) return;
  collectLineMatches(path, text, matches, wanted, (from) => haystack.indexOf(needle, from));
}

function searchRegex(path: string, text: string, pattern: RegExp, matches: RawMatch[], wanted: number): void {
  collectLineMatches(path, text, matches, wanted, (from) => {
    pattern.lastIndex = from;
    return pattern.exec(text)?.index ?? -1;
  });
}

// Pushes the first match of each line: `find(from)` is the next match position at or after `from`, or -1.
function collectLineMatches(path: string, text: string, matches: RawMatch[], wanted: number, find: (from: number) => number): void {
  let line = 1;
  let lineStart = 0;
  let position = find(0);
  while (position !== -1 && matches.length < wanted) {
    for (let newline = text.indexOf("\n", lineStart); newline !== -1 && newline < position; newline = text.indexOf("\n", lineStart)) {
      line++;
      lineStart = newline + 1;
    }
    const lineEnd = endOfLine(text, lineStart);
    matches.push({ path, line, column: position - lineStart + 1, text: lineText(text, lineStart, lineEnd, position) });
    if (lineEnd >= text.length) break;
    position = find(lineEnd + 1);
  }
}

function endOfLine(text: string, lineStart: number): number {
  const newline = text.indexOf("\n", lineStart);
  return newline === -1 ? text.length : newline;
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
