import { hash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { columnsJson, FILTER_COLUMNS, readColumns, RECORD_COLUMNS } from "./cache-columns.ts";
import { cachedFilter, cachedRecord, spansBytesOf, symbolsJsonOf, type RecordPlaces, type StoredRecord } from "./cached-record.ts";
import type { FileRecord } from "./file-analysis.ts";
import type { FileFilter } from "./file-filters.ts";
import { comparePaths } from "./repo-walk.ts";
import { GramsFile } from "./grams-file.ts";
import { SymbolFile } from "./symbol-store.ts";

/** Bumped whenever extraction or the file layout changes, so old caches are ignored rather than trusted. */
export const INDEX_CACHE_VERSION = 13;

// The cache is four files per root. `<hash>.json` holds every file's metadata (path, size,
// mtime, language, lines, symbol count, and the lengths of its spans, symbols and trigram
// filter) as columns (cache-columns.ts): small, so a warm start parses little. Beside it, `<hash>.symbols` holds one line of
// JSON per file, in the same order, with that file's symbols, and `<hash>.spans` one line of
// bytes with their spans (see symbol-piece.ts: all a search needs, a seventh of the bytes; binary,
// so a line may hold a line feed: lines are found by their lengths, and the line feeds between them
// only check those); both are kept open and each line is read and decoded only when first needed. `<hash>.grams` holds the
// files' trigram filters, one after the other; it is read whole when a first search asks for one.
// The metadata also lists files that searches read but nobody analysed (see file-filters.ts),
// with their filters after the records' in `<hash>.grams`.

interface CacheContents {
  readonly version: number;
  readonly maxFileBytes: number;
  /** The secret-file patterns of the walk the records come from (its file list is used only under the same rule). */
  readonly secretFiles: readonly string[];
  /** Byte length of the symbols file, so a pair written by two different runs is not trusted. */
  readonly symbolsBytes: number;
  /** Byte length of the spans file, likewise. */
  readonly spansBytes: number;
  /** Byte length of the filter file, likewise. */
  readonly gramsBytes: number;
  /** An id of this write, which both other files start with: a set mixed from two writes is not trusted. */
  readonly writeId: string;
  /**
   * The records' metadata as columns (see cache-columns.ts: {@link RECORD_COLUMNS}), in path order;
   * besides a record's own fields, the bytes of its lines in the symbols and spans files (line feed
   * left out) and of its trigram filter in the filter file (0: none).
   */
  readonly files: unknown;
  /** Files with a filter and no record, in path order, as columns ({@link FILTER_COLUMNS}; a filter of 0 bytes: binary). */
  readonly filters: unknown;
}

/** What a disk cache read: the records by path, and the symbols file they read from while it is open. */
export interface IndexCache {
  /** The records in path order (byte order of the paths, as a walk lists them). */
  readonly records: ReadonlyMap<string, FileRecord>;
  /** The filters of files without a record, in path order. */
  readonly filters: ReadonlyMap<string, FileFilter>;
  /** The secret-file patterns of the walk the records come from. */
  readonly secretFiles: readonly string[];
  /** Closes the symbols and filter files: what was not read yet can no longer be. */
  close(): void;
}

const NEWLINE = 0x0a;
const LINE_END = Uint8Array.of(NEWLINE);
const NO_GRAMS = new Uint8Array(0);
const WRITE_CHUNK_BYTES = 4 * 1024 * 1024;
/**
 * The per-user cache directory rlmkit's code index is kept in:
 * `$XDG_CACHE_HOME/rlmkit/nav` (or `~/.cache/rlmkit/nav`) on Linux,
 * `~/Library/Caches/rlmkit/nav` on macOS, `%LOCALAPPDATA%\rlmkit\nav` on Windows.
 */
export function defaultIndexCacheDir(): string {
  const home = os.homedir();
  if (process.platform === "darwin") return path.join(home, "Library", "Caches", "rlmkit", "nav");
  if (process.platform === "win32") return path.join(process.env.LOCALAPPDATA ?? path.join(home, "AppData", "Local"), "rlmkit", "nav");
  return path.join(process.env.XDG_CACHE_HOME || path.join(home, ".cache"), "rlmkit", "nav");
}

/** The cache file for one repository root: one JSON file per root, named by a hash of its real path. */
export function indexCacheFile(cacheDir: string, root: string): string {
  return path.join(cacheDir, `${hash("sha256", root, "hex").slice(0, 20)}.json`);
}

/** The symbols file that goes with a cache file. */
function symbolsFileOf(file: string): string {
  return file.replace(/\.json$/, "") + ".symbols";
}

/** The spans file that goes with a cache file. */
function spansFileOf(file: string): string {
  return file.replace(/\.json$/, "") + ".spans";
}

/** The trigram filter file that goes with a cache file. */
function gramsFileOf(file: string): string {
  return file.replace(/\.json$/, "") + ".grams";
}

/** Reads cached file records keyed by path; an unreadable, old or mismatched cache reads as empty. */
export async function readIndexCache(file: string, maxFileBytes: number): Promise<IndexCache> {
  const empty: IndexCache = { records: new Map(), filters: new Map(), secretFiles: [], close: () => undefined };
  let symbols: SymbolFile | undefined;
  let spans: SymbolFile | undefined;
  let grams: GramsFile | undefined;
  try {
    // Read on this thread: the caller waits for it with nothing else to do, and a read through the thread pool
    // took 1-6 ms of a first search for stdlib's 260 KB (the pool's threads start, four hops), against 0.3.
    const contents = JSON.parse(readFileSync(file, "utf8")) as CacheContents;
    if (contents.version !== INDEX_CACHE_VERSION || contents.maxFileBytes !== maxFileBytes || !Array.isArray(contents.secretFiles)) return empty;
    if (typeof contents.writeId !== "string" || !/^[0-9a-f-]{36}$/.test(contents.writeId)) return empty;
    symbols = SymbolFile.open(symbolsFileOf(file), contents.symbolsBytes, contents.writeId);
    spans = SymbolFile.open(spansFileOf(file), contents.spansBytes, contents.writeId);
    if (!symbols || !spans) throw new Error("the symbols or spans file is missing or of another write");
    grams = GramsFile.open(gramsFileOf(file), contents.gramsBytes, contents.writeId);
    const pieces = symbols;
    const spanPieces = spans;
    const records = new Map<string, FileRecord>();
    // The other files start with the write's id (the symbols and spans files as their first line).
    let offset = contents.writeId.length + 1;
    let spansOffset = offset;
    let gramsOffset = contents.writeId.length;
    const { columns: f, rows } = readColumns(contents.files, RECORD_COLUMNS);
    // One object for every record's places: the record copies the numbers.
    const places: RecordPlaces = { symbolsFile: pieces, symbolsAt: offset, symbolsLength: 0, spansFile: spanPieces, spansAt: spansOffset, spansLength: 0, gramsFile: undefined, gramsAt: 0, gramsLength: 0 };
    for (let row = 0; row < rows; row++) {
      const length = f.symbolsLength[row];
      const spansLength = f.spansLength[row];
      const gramsLength = f.gramsLength[row];
      if (!isCount(length) || !isCount(spansLength) || !isCount(gramsLength) || typeof f.path[row] !== "string") throw new Error("bad cache entry");
      places.symbolsAt = offset;
      places.symbolsLength = length;
      places.spansAt = spansOffset;
      places.spansLength = spansLength;
      places.gramsFile = gramsLength > 0 ? grams : undefined;
      places.gramsAt = gramsOffset;
      places.gramsLength = gramsLength;
      records.set(f.path[row] as string, cachedRecord(f, row, places));
      offset += length + 1;
      spansOffset += spansLength + 1;
      gramsOffset += gramsLength;
    }
    const filters = new Map<string, FileFilter>();
    const { columns: g, rows: filterRows } = readColumns(contents.filters, FILTER_COLUMNS);
    for (let row = 0; row < filterRows; row++) {
      const gramsLength = g.gramsLength[row];
      if (!isCount(gramsLength) || typeof g.path[row] !== "string") throw new Error("bad cache entry");
      filters.set(g.path[row] as string, cachedFilter(g, row, gramsLength > 0 ? grams : undefined, gramsOffset, gramsLength));
      gramsOffset += gramsLength;
    }
    if (offset !== contents.symbolsBytes || spansOffset !== contents.spansBytes || (grams && gramsOffset !== contents.gramsBytes)) throw new Error("the cache files do not match their metadata");
    const gramsFile = grams;
    return {
      records,
      filters,
      secretFiles: contents.secretFiles,
      close: () => {
        pieces.close();
        spanPieces.close();
        gramsFile?.close();
      },
    };
  } catch {
    symbols?.close();
    spans?.close();
    grams?.close();
    return empty;
  }
}

/**
 * Writes file records and the filters of files without one, each in path order (each file
 * written to a temporary name, then renamed), with the secret-file patterns of the walk they
 * come from. Failures are ignored: the cache is an optimisation.
 */
export async function writeIndexCache(
  file: string,
  maxFileBytes: number,
  secretFiles: readonly string[],
  records: Iterable<FileRecord>,
  filters: Iterable<FileFilter> = [],
): Promise<boolean> {
  const list = [...records].sort((a, b) => comparePaths(a.path, b.path));
  const filterList = [...filters].sort((a, b) => comparePaths(a.path, b.path));
  const suffix = `.${process.pid}.${Date.now()}.tmp`;
  const symbolsFile = symbolsFileOf(file);
  const spansFile = spansFileOf(file);
  const gramsFile = gramsFileOf(file);
  try {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const writeId = randomUUID();
    const lengths = new Float64Array(list.length);
    const symbolsBytes = await writeLines(symbolsFile + suffix, writeId, list, lengths, symbolsJsonOf);
    const spansLengths = new Float64Array(list.length);
    const spansBytes = await writeLines(spansFile + suffix, writeId, list, spansLengths, spansBytesOf);
    const gramsLengths = new Float64Array(list.length + filterList.length);
    const gramsBytes = await writeChunks(gramsFile + suffix, (function* () {
      yield writeId;
      for (let index = 0; index < list.length + filterList.length; index++) {
        const grams = (index < list.length ? list[index]!.grams : filterList[index - list.length]!.grams) ?? NO_GRAMS;
        gramsLengths[index] = grams.byteLength;
        yield grams;
      }
    })());
    // The same JSON as `JSON.stringify(contents)`, streamed a chunk of a column at a time (50,000 files make megabytes of it).
    const head: Omit<CacheContents, "files" | "filters"> = { version: INDEX_CACHE_VERSION, maxFileBytes, secretFiles, symbolsBytes, spansBytes, gramsBytes, writeId };
    const lengthsOf = { symbolsLength: lengths, spansLength: spansLengths, gramsLength: gramsLengths };
    await writeChunks(file + suffix, (function* () {
      yield `${JSON.stringify(head).slice(0, -1)},"files":`;
      yield* columnsJson(RECORD_COLUMNS, list.length, (name, row) => (name in lengthsOf ? lengthsOf[name as keyof typeof lengthsOf][row] : list[row]![name as keyof StoredRecord]));
      yield `,"filters":`;
      yield* columnsJson(FILTER_COLUMNS, filterList.length, (name, row) => (name === "gramsLength" ? gramsLengths[list.length + row] : filterList[row]![name]));
      yield "}";
    })());
    // Symbols, spans and filters first: a reader that sees the new metadata also sees them (the byte counts check the set).
    await fs.rename(symbolsFile + suffix, symbolsFile);
    await fs.rename(spansFile + suffix, spansFile);
    await fs.rename(gramsFile + suffix, gramsFile);
    await fs.rename(file + suffix, file);
    return true;
  } catch {
    for (const written of [symbolsFile, spansFile, gramsFile, file]) await fs.rm(written + suffix, { force: true }).catch(() => undefined);
    return false;
  }
}

// Streams the write's id, then one line per record (its symbols' JSON or its spans' bytes, from `line`), so the
// whole file is never held in memory; each line's length (its line feed left out) goes to `lengths`.
function writeLines(target: string, writeId: string, records: readonly FileRecord[], lengths: Float64Array, line: (record: FileRecord) => Uint8Array): Promise<number> {
  return writeChunks(target, (function* () {
    yield `${writeId}\n`;
    for (let index = 0; index < records.length; index++) {
      const bytes = line(records[index]!);
      lengths[index] = bytes.byteLength;
      yield bytes;
      yield LINE_END;
    }
  })());
}

// Writes the pieces to `target` through one reused buffer of WRITE_CHUNK_BYTES; resolves to the
// bytes written. A new buffer per chunk would leave the process's memory grown by the size of the
// whole file after a large write (freed buffers of this size are kept by the allocator, not returned).
async function writeChunks(target: string, pieces: Iterable<Uint8Array | string>): Promise<number> {
  const handle = await fs.open(target, "w");
  const chunk = Buffer.allocUnsafe(WRITE_CHUNK_BYTES);
  let used = 0;
  let written = 0;
  const flushChunk = async () => {
    for (let done = 0; done < used; ) done += (await handle.write(chunk, done, used - done)).bytesWritten;
    written += used;
    used = 0;
  };
  try {
    for (const piece of pieces) {
      const fits = (typeof piece === "string" ? Buffer.byteLength(piece) : piece.byteLength) <= chunk.length - used;
      if (typeof piece === "string" && fits) {
        used += chunk.write(piece, used);
        continue;
      }
      // A piece that spans a write is copied first: a symbols file's reads share one buffer, and
      // another read could reuse it while this write is awaited.
      const bytes = typeof piece === "string" ? Buffer.from(piece) : fits ? piece : Buffer.from(piece);
      for (let from = 0; from < bytes.byteLength; ) {
        const take = Math.min(bytes.byteLength - from, chunk.length - used);
        chunk.set(take === bytes.byteLength ? bytes : bytes.subarray(from, from + take), used);
        used += take;
        from += take;
        if (used === chunk.length) await flushChunk();
      }
    }
    await flushChunk();
  } finally {
    await handle.close();
  }
  return written;
}

// Every field of a stored record has its column (a field added to FileRecord fails to compile here until it has one).
const EVERY_FIELD_HAS_A_COLUMN: [Exclude<keyof StoredRecord, (typeof RECORD_COLUMNS)[number]>] extends [never] ? true : never = true;
void EVERY_FIELD_HAS_A_COLUMN;

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
