// One of the text-search workers: it searches its share of the files (reading
// each on first use and keeping the texts in memory between searches) and can
// be terminated to stop a runaway pattern. It is loaded by file URL, both from
// source (.ts) and from the build (.js), so it imports only modules that stand alone.
import v8 from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { globMatcher } from "./file-rules.ts";
import type { WorkerMatches } from "./search-matches.ts";
import type { FileShare } from "./search-shares.ts";
import type { WorkerSearchRequest } from "./text-search.ts";
import { decodeSearchText, ScratchReader } from "./file-read.ts";
import { LineTable } from "./line-table.ts";
import { compileLinePattern, MatchSink, scanPlan, scanText, type ScannedText, type SearchFile } from "./text-scan.ts";
import { filterOfBytes, type LearnedFilters } from "./file-filters.ts";

// Makes the `l` flag (V8's linear-time regular expression engine) available.
// The flag is process-wide; it only adds a RegExp flag and changes no existing behaviour.
v8.setFlagsFromString("--enable-experimental-regexp-engine");

interface CachedText extends ScannedText {
  readonly size: number;
  readonly mtimeMs: number;
  // The version and the file the text was read as (NaN where the list had none): a text is used while the list names them all.
  readonly ctimeMs: number;
  readonly dev: number;
  readonly ino: number;
}

const { heartbeat, cacheBudgetChars } = workerData as { heartbeat: Int32Array; cacheBudgetChars: number };
// Files that are binary or unreadable are kept as this text-less entry.
const NO_TEXT = null;

let share: FileShare = { paths: [], sizes: new Float64Array(0), mtimes: new Float64Array(0), ctimes: new Float64Array(0), devs: new Float64Array(0), inos: new Float64Array(0), indexes: new Int32Array(0) };
const texts = new Map<string, CachedText | (Omit<CachedText, "text" | "lines"> & { readonly text: typeof NO_TEXT })>();
let cachedChars = 0;
// Files are read into one reused buffer (no buffer per file, no fstat): their texts are decoded out of it.
const reader = new ScratchReader(1024 * 1024);
// The filters made while the current request read files (see file-filters.ts).
let learned: LearnedFilters = { indexes: [], grams: [] };

parentPort?.on("message", (request: WorkerSearchRequest) => {
  try {
    if (request.share) {
      share = request.share;
      forgetOthers(share.paths);
    }
    learned = { indexes: [], grams: [] };
    const result = request.names ? { hits: searchNames(request, request.names) } : search(request);
    if (learned.indexes.length > 0) Object.assign(result, { filters: learned });
    parentPort?.postMessage({ id: request.id, ...result }, "meta" in result ? [result.meta.buffer as ArrayBuffer] : []);
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});

const beat = () => void Atomics.add(heartbeat, 0, 1);

// Drops the texts of files that are no longer this worker's (the files were shared out anew:
// a first search's share of the files that may match, then every file), so no text is kept twice.
function forgetOthers(paths: readonly string[]): void {
  if (texts.size === 0) return;
  const mine = new Set(paths);
  for (const [path, entry] of texts) {
    if (mine.has(path)) continue;
    cachedChars -= entry.text?.length ?? 0;
    texts.delete(path);
  }
}

function search(request: WorkerSearchRequest): WorkerMatches {
  const sink = new MatchSink(beat);
  const wanted = request.limit + 1;
  const isMatch = request.glob ? globMatcher(request.glob) : undefined;
  const pattern = request.pattern ? compileLinePattern(request.pattern, request.linear, true) : undefined;
  const plan = scanPlan(request.query, request.caseSensitive, pattern, request.pattern?.literal);
  const changed: number[] = [];
  const unread: number[] = [];
  let searchedFiles = 0;
  // A preload reads every file of the share, and runs the search too (warming the code that scans) but sends no lines.
  const { paths, sizes, indexes } = share;
  for (let index = 0; index < paths.length && (request.preload || sink.count < wanted); index++) {
    beat();
    if (sizes[index]! > request.maxFileBytes) continue;
    if (isMatch && !isMatch(paths[index]!)) continue;
    const entry = load(request.root, share, index, changed, unread, request.learn?.[index] === 1);
    if (entry.text === NO_TEXT) continue;
    searchedFiles++;
    if (sink.count >= wanted) continue;
    scanText(indexes[index]!, entry as CachedText, plan, sink, wanted);
  }
  return request.preload ? { meta: new Int32Array(0), texts: [], count: 0, searchedFiles, changed, unread } : { ...sink.result(), searchedFiles, changed, unread };
}

function searchNames(request: WorkerSearchRequest, names: readonly string[]): number[] {
  const hits: number[] = [];
  const pattern = request.pattern ? compileLinePattern(request.pattern, request.linear, false) : undefined;
  const needle = request.caseSensitive ? request.query : request.query.toLowerCase();
  for (let index = 0; index < names.length && hits.length <= request.limit; index++) {
    if ((index & 1023) === 0) beat();
    const name = names[index];
    if (pattern ? pattern.test(name) : (request.caseSensitive ? name : name.toLowerCase()).includes(needle)) hits.push(index);
  }
  return hits;
}

// The text of the share's file `at`, from memory while its size, times and identity are those of the index; a
// file whose size on disk differs from the index's is read anew and reported in `changed`, and so is
// one whose path leads to another file than the one listed, of which nothing is read or kept (the
// next search reads it again, once the index knows it). With `learn`, a file read from disk at the
// index's size also gets a trigram filter, in `learned`.
// Whether a kept text is of the share's file `at`: the same size, mtime and ctime, and the same file where both know
// which (a text read from the disk cache's list, which keeps no identity, stands for the walked file of that version).
function sameVersion(cached: Omit<CachedText, "text" | "lines">, share: FileShare, at: number): boolean {
  if (cached.size !== share.sizes[at] || cached.mtimeMs !== share.mtimes[at] || !Object.is(cached.ctimeMs, share.ctimes[at])) return false;
  const known = (mine: number, theirs: number) => Number.isNaN(mine) || Number.isNaN(theirs) || mine === theirs;
  return known(cached.dev, share.devs[at]!) && known(cached.ino, share.inos[at]!);
}

// A value of a share, when the list had it (NaN: it had none).
function known<K extends "ctimeMs" | "dev" | "ino">(key: K, value: number): Partial<Record<K, number>> {
  return Number.isNaN(value) ? {} : ({ [key]: value } as Record<K, number>);
}

function load(root: string, share: FileShare, at: number, changed: number[], unread: number[], learn: boolean) {
  const path = share.paths[at]!;
  const cached = texts.get(path);
  if (cached && sameVersion(cached, share, at)) return cached;
  const file: SearchFile = { path, size: share.sizes[at]!, mtimeMs: share.mtimes[at]!, ...known("ctimeMs", share.ctimes[at]!), ...known("dev", share.devs[at]!), ...known("ino", share.inos[at]!) };
  const fileIndex = share.indexes[at]!;
  const read = reader.read(root, file);
  if (read.changed) changed.push(fileIndex);
  // The version as read, for the cache key (see CachedText).
  const version = { size: file.size, mtimeMs: file.mtimeMs, ctimeMs: share.ctimes[at]!, dev: share.devs[at]!, ino: share.inos[at]! };
  if (read.changed && read.bytes === null) {
    unread.push(fileIndex);
    return { ...version, text: NO_TEXT };
  }
  if (learn && read.bytes !== null && !read.changed) {
    learned.indexes.push(fileIndex);
    learned.grams.push(filterOfBytes(read.bytes) ?? null);
  }
  const text = read.bytes === null ? NO_TEXT : (decodeSearchText(read.bytes) ?? NO_TEXT);
  if (cached) {
    cachedChars -= cached.text?.length ?? 0;
    texts.delete(file.path);
  }
  if (text !== NO_TEXT && cachedChars + text.length > cacheBudgetChars) return { ...version, text } satisfies CachedText;
  // A kept text records its line starts as scans pass them (see line-table.ts).
  const entry = text === NO_TEXT ? { ...version, text } : ({ ...version, text, lines: new LineTable(text) } satisfies CachedText);
  texts.set(file.path, entry);
  cachedChars += text?.length ?? 0;
  return entry;
}
