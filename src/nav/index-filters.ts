// How the index helps a first search: which files it may skip (their trigram filters), and the
// disk cache's file list to start on before the walk. A file is known by a record (analysed)
// or by a filter alone (read by a search, see file-filters.ts); either counts only for the
// version of the file it was made from.
import fs from "node:fs";
import type { FileRecord } from "./file-analysis.ts";
import type { FileFilter, FilterSink } from "./file-filters.ts";
import type { IndexCache } from "./index-cache.ts";
import { comparePaths, type WalkedFile } from "./repo-walk.ts";
import type { SearchFile } from "./text-scan.ts";
import { filterMayHold, isCacheEntry } from "./cached-record.ts";

/** A file's version: size, mtime and ctime. */
export interface FileVersion {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs?: number;
}

/**
 * True when a record describes the file as walked: same size, mtime and ctime. The ctime
 * changes with every write and cannot be set back, so a file rewritten with its old size
 * and mtime (`cp -p`, `rsync -t`) is analysed again.
 */
export function sameVersion(record: FileVersion, file: FileVersion): boolean {
  return record.size === file.size && record.mtimeMs === file.mtimeMs && record.ctimeMs === file.ctimeMs;
}

/** What the index knows of one version of a file's bytes: a record, or a filter alone. */
export type KnownFile = Pick<FileRecord, "path" | "size" | "mtimeMs" | "ctimeMs" | "binary" | "grams"> | FileFilter;

// A path with an empty, `.` or `..` segment, a leading `/`, a backslash or a NUL.
const UNSAFE_PATH = /(?:^|\/)\.{0,2}(?:\/|$)|\\|\0/;

// The lists cachedFileList made: each file of one is a record or filter of the cache, known for its version.
const cacheLists = new WeakSet<readonly SearchFile[]>();

/** True for a list {@link cachedFileList} made: the index knows each of its files (it wants no filter of one). */
export function isCacheList(files: readonly SearchFile[]): boolean {
  return cacheLists.has(files);
}

/**
 * The disk cache's files, records and filters merged in path order, when the cache was
 * written under these secret-file patterns and names only plain paths below the root
 * (an edited cache is not read from); else `undefined`.
 */
export function cachedFileList(cache: IndexCache, secretFiles: readonly string[]): SearchFile[] | undefined {
  if (cache.records.size + cache.filters.size === 0) return undefined;
  if (cache.secretFiles.length !== secretFiles.length || cache.secretFiles.some((pattern, index) => pattern !== secretFiles[index])) return undefined;
  const records = [...cache.records.values()];
  const filters = [...cache.filters.values()];
  const files: SearchFile[] = [];
  let r = 0;
  let f = 0;
  while (r < records.length || f < filters.length) {
    const next = f >= filters.length || (r < records.length && comparePaths(records[r]!.path, filters[f]!.path) <= 0) ? records[r++]! : filters[f++]!;
    if (UNSAFE_PATH.test(next.path)) return undefined;
    // A path with both (a record of one version, a filter of another) is listed once.
    if (files.length > 0 && files[files.length - 1]!.path === next.path) continue;
    files.push(next);
  }
  cacheLists.add(files);
  return files;
}

/**
 * A test of files against the index's trigram filters (see {@link trigramTestOf}); with `trigrams` when an entry of
 * the disk cache's own list is judged by its own filter alone, as a native reader can judge it (see `gramsPlaceInto`).
 */
export type TrigramTest = ((file: SearchFile) => boolean) & { readonly trigrams?: Uint32Array };

/**
 * The test behind `RepositoryIndex.trigramTest`: false only for a file whose current
 * record or filter says it is binary, or has a trigram filter without one of the
 * trigrams. With `restat` (the walk is older than the test), a file is `stat`ed again
 * before it is ruled out. A file of the cache's list is a record or filter itself, and
 * is its own for its version: it is tested without a lookup. Any other file's verdict is
 * kept per file object: a search asks twice (to choose where it runs, then as it reads).
 * (A filter test costs less than keeping its verdict in a map: 0.1 µs against 0.25 µs.)
 */
export function trigramTestOf(current: (file: SearchFile) => KnownFile | undefined, trigrams: Uint32Array, restat?: (file: SearchFile) => string): TrigramTest {
  // A Map, not a WeakMap (several times slower for 50,000 keys): it lives as long as the test, one search.
  const verdicts = new Map<SearchFile, boolean>();
  const holds = (known: KnownFile): boolean => !known.binary && filterMayHold(known, trigrams);
  const judge = (file: SearchFile, known: KnownFile | undefined): boolean => {
    // A binary file is never searched (the search sees it too, after reading it).
    if (!known || holds(known)) return true;
    if (!restat) return false;
    try {
      const now = fs.statSync(restat(file), { throwIfNoEntry: false });
      return now === undefined || !sameVersion(known, now);
    } catch {
      return true;
    }
  };
  const test = (file: SearchFile): boolean => {
    if (!restat && isCacheEntry(file)) return holds(file);
    let verdict = verdicts.get(file);
    if (verdict === undefined) verdicts.set(file, (verdict = judge(file, isCacheEntry(file) ? file : current(file))));
    return verdict;
  };
  // Once the walk is older than the test, an entry is stated again before it is ruled out: no native reader decides.
  return restat ? test : Object.assign(test, { trigrams });
}

/**
 * The record or filter known for this version of a file: this process's first, then the disk
 * cache's. A file of the cache's list is a record or filter itself, known without a lookup.
 */
export function knownFileOf(records: ReadonlyMap<string, FileRecord>, filters: ReadonlyMap<string, FileFilter>, cache: IndexCache): (file: SearchFile) => KnownFile | undefined {
  return (file) => {
    if (isCacheEntry(file)) return file;
    const record = records.get(file.path) ?? cache.records.get(file.path);
    if (record && sameVersion(record, file)) return record;
    const filter = filters.get(file.path) ?? cache.filters.get(file.path);
    return filter && sameVersion(filter, file) ? filter : undefined;
  };
}

/**
 * A sink for the filters a search makes (see file-filters.ts): it wants one of each walked file
 * (one with a ctime) that `known` knows nothing of for that version, and keeps it in `learned`.
 */
export function learningSink(known: (file: SearchFile) => KnownFile | undefined, learned: Map<string, FileFilter>, onLearn: () => void): FilterSink {
  return {
    wants: (file) => known(file) === undefined,
    add: (file, grams) => {
      const { ctimeMs } = file as Partial<WalkedFile>;
      if (ctimeMs === undefined || known(file) !== undefined) return;
      learned.set(file.path, { path: file.path, size: file.size, mtimeMs: file.mtimeMs, ctimeMs, binary: grams === undefined, grams });
      onLearn();
    },
  };
}
