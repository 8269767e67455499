import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { FileRecord } from "./file-analysis.ts";
import { comparePaths } from "./repo-walk.ts";
import type { NavSymbol } from "./symbol.ts";
import { SymbolFile, type PieceAt, type SymbolPieces } from "./symbol-store.ts";

/** Bumped whenever extraction or the file layout changes, so old caches are ignored rather than trusted. */
export const INDEX_CACHE_VERSION = 6;

// The cache is two files per root. `<hash>.json` holds every file's metadata (path, size,
// mtime, language, lines, symbol count, and the length of its symbols): small, so a warm
// start parses little. Beside it, `<hash>.symbols` holds one line of JSON per file, in the
// same order, with that file's symbols; it is kept open and each line is read, decoded and
// parsed only when that file's symbols are first needed.
/** A file record without its symbols: what the metadata file holds. */
export type StoredRecord = Omit<FileRecord, "symbols">;

type StoredEntry = StoredRecord & {
  /** Bytes of the file's line in the symbols file, its line feed left out. */
  readonly symbolsLength: number;
};

interface CacheContents {
  readonly version: number;
  readonly maxFileBytes: number;
  /** The secret-file patterns of the walk the records come from (its file list is used only under the same rule). */
  readonly secretFiles: readonly string[];
  /** Byte length of the symbols file, so a pair written by two different runs is not trusted. */
  readonly symbolsBytes: number;
  readonly files: StoredEntry[];
}

/** What a disk cache read: the records by path, and the symbols file they read from while it is open. */
export interface IndexCache {
  /** The records in path order (byte order of the paths, as a walk lists them). */
  readonly records: ReadonlyMap<string, FileRecord>;
  /** The secret-file patterns of the walk the records come from. */
  readonly secretFiles: readonly string[];
  /** Closes the symbols file: symbols not yet read can no longer be. */
  close(): void;
}

const NEWLINE = 0x0a;
const LINE_END = Uint8Array.of(NEWLINE);
const WRITE_CHUNK_BYTES = 4 * 1024 * 1024;
/** Where a record's symbols JSON is: bytes in memory, or a piece of an open symbols file. */
type SymbolsSource = Uint8Array | { readonly pieces: SymbolPieces; readonly at: PieceAt };

/**
 * A record whose symbols are parsed from their JSON text (UTF-8 bytes, kept
 * outside the JavaScript heap or in a symbols file) only when first read; the
 * bytes are also what the cache writes back, untouched. A class, not a closure
 * and a property getter per record: a warm start makes 50,000 of them.
 */
class LazySymbolsRecord implements FileRecord {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly language?: string;
  readonly binary: boolean;
  readonly large: boolean;
  readonly lines: number | null;
  readonly symbolCount: number;
  #source: SymbolsSource;
  #parsed: NavSymbol[] | undefined;

  constructor(stored: StoredRecord, source: SymbolsSource) {
    this.path = stored.path;
    this.size = stored.size;
    this.mtimeMs = stored.mtimeMs;
    if (stored.language !== undefined) this.language = stored.language;
    this.binary = stored.binary;
    this.large = stored.large;
    this.lines = stored.lines;
    this.symbolCount = stored.symbolCount;
    this.#source = source;
  }

  get symbols(): readonly NavSymbol[] {
    if (this.#parsed) return this.#parsed;
    const raw = this.symbolsJson();
    return (this.#parsed = JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("utf8")) as NavSymbol[]);
  }

  /** The symbols' JSON text as UTF-8 bytes (for a piece of a file, valid until the next read of that file). */
  symbolsJson(): Uint8Array {
    const source = this.#source;
    return source instanceof Uint8Array ? source : source.pieces.read(source.at);
  }
}

/** A record whose symbols are read from `json` (in memory, or a piece of a symbols file) and parsed when first needed. */
export function withLazySymbols(stored: StoredRecord, json: SymbolsSource): FileRecord {
  return new LazySymbolsRecord(stored, json);
}

// The record's own fields but its symbols (whose getter is not called).
function metadata(record: FileRecord): StoredRecord {
  const stored: Record<string, unknown> = {};
  for (const key of Object.keys(record)) if (key !== "symbols") stored[key] = record[key as keyof FileRecord];
  return stored as unknown as StoredRecord;
}

function symbolsBytes(record: FileRecord): Uint8Array {
  return record instanceof LazySymbolsRecord ? record.symbolsJson() : Buffer.from(JSON.stringify(record.symbols), "utf8");
}

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
  return path.join(cacheDir, `${createHash("sha256").update(root).digest("hex").slice(0, 20)}.json`);
}

/** The symbols file that goes with a cache file. */
function symbolsFileOf(file: string): string {
  return file.replace(/\.json$/, "") + ".symbols";
}

/** Reads cached file records keyed by path; an unreadable, old or mismatched cache reads as empty. */
export async function readIndexCache(file: string, maxFileBytes: number): Promise<IndexCache> {
  const empty: IndexCache = { records: new Map(), secretFiles: [], close: () => undefined };
  let symbols: SymbolFile | undefined;
  try {
    const contents = JSON.parse(await fs.readFile(file, "utf8")) as CacheContents;
    if (contents.version !== INDEX_CACHE_VERSION || contents.maxFileBytes !== maxFileBytes || !Array.isArray(contents.files) || !Array.isArray(contents.secretFiles)) return empty;
    symbols = SymbolFile.open(symbolsFileOf(file), contents.symbolsBytes);
    if (!symbols) return empty;
    const pieces = symbols;
    const records = new Map<string, FileRecord>();
    let offset = 0;
    for (const stored of contents.files) {
      const length = stored.symbolsLength;
      if (!Number.isSafeInteger(length) || length < 0) throw new Error("bad cache entry");
      records.set(stored.path, new LazySymbolsRecord(stored, { pieces, at: { offset, length } }));
      offset += length + 1;
    }
    if (offset !== contents.symbolsBytes) throw new Error("the symbols file does not match its metadata");
    return { records, secretFiles: contents.secretFiles, close: () => pieces.close() };
  } catch {
    symbols?.close();
    return empty;
  }
}

/**
 * Writes file records in path order (each file written to a temporary name, then renamed),
 * with the secret-file patterns of the walk they come from. Failures are ignored: the cache is an optimisation.
 */
export async function writeIndexCache(file: string, maxFileBytes: number, secretFiles: readonly string[], records: Iterable<FileRecord>): Promise<boolean> {
  const list = [...records].sort((a, b) => comparePaths(a.path, b.path));
  const suffix = `.${process.pid}.${Date.now()}.tmp`;
  const symbolsFile = symbolsFileOf(file);
  try {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const lengths = new Float64Array(list.length);
    const symbolsBytes = await writeSymbolLines(symbolsFile + suffix, list, lengths);
    // The same JSON as `JSON.stringify(contents)`, streamed a record at a time (50,000 files make tens of MB of it).
    const head: Omit<CacheContents, "files"> = { version: INDEX_CACHE_VERSION, maxFileBytes, secretFiles, symbolsBytes };
    await writeChunks(file + suffix, (function* () {
      yield `${JSON.stringify(head).slice(0, -1)},"files":[`;
      for (let index = 0; index < list.length; index++) {
        yield `${index === 0 ? "" : ","}${JSON.stringify({ ...metadata(list[index]!), symbolsLength: lengths[index]! } satisfies StoredEntry)}`;
      }
      yield "]}";
    })());
    // Symbols first: a reader that sees the new metadata also sees its symbols (the byte count checks the pair).
    await fs.rename(symbolsFile + suffix, symbolsFile);
    await fs.rename(file + suffix, file);
    return true;
  } catch {
    await fs.rm(symbolsFile + suffix, { force: true }).catch(() => undefined);
    await fs.rm(file + suffix, { force: true }).catch(() => undefined);
    return false;
  }
}

// Streams one line of symbols JSON per record, so the whole file is never held in memory;
// each line's length (its line feed left out) goes to `lengths`.
function writeSymbolLines(target: string, records: readonly FileRecord[], lengths: Float64Array): Promise<number> {
  return writeChunks(target, (function* () {
    for (let index = 0; index < records.length; index++) {
      const bytes = symbolsBytes(records[index]!);
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
