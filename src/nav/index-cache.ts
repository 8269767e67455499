import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { FileRecord } from "./file-analysis.ts";
import type { NavSymbol } from "./symbol.ts";

/** Bumped whenever extraction changes, so old caches are ignored rather than trusted. */
export const INDEX_CACHE_VERSION = 2;

// On disk each file's symbols are a JSON string of their own, parsed only when that file's
// symbols are first needed: a warm start parses little more than paths, sizes and counts.
type StoredRecord = Omit<FileRecord, "symbols"> & { readonly symbols: string };

interface CacheContents {
  readonly version: number;
  readonly maxFileBytes: number;
  readonly files: StoredRecord[];
}

const rawSymbols = new WeakMap<FileRecord, string>();

function hydrate(stored: StoredRecord): FileRecord {
  const { symbols: raw, ...rest } = stored;
  let parsed: NavSymbol[] | undefined;
  const record = Object.defineProperty({ ...rest }, "symbols", {
    enumerable: true,
    get: () => (parsed ??= JSON.parse(raw) as NavSymbol[]),
  }) as FileRecord;
  rawSymbols.set(record, raw);
  return record;
}

function store(record: FileRecord): StoredRecord {
  const { symbols: _symbols, ...rest } = Object.getOwnPropertyDescriptors(record);
  void _symbols;
  const plain = Object.fromEntries(Object.entries(rest).map(([key, descriptor]) => [key, descriptor.value])) as Omit<FileRecord, "symbols">;
  return { ...plain, symbols: rawSymbols.get(record) ?? JSON.stringify(record.symbols) };
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

/** Reads cached file records keyed by path; an unreadable, old or mismatched cache reads as empty. */
export async function readIndexCache(file: string, maxFileBytes: number): Promise<Map<string, FileRecord>> {
  try {
    const contents = JSON.parse(await fs.readFile(file, "utf8")) as CacheContents;
    if (contents.version !== INDEX_CACHE_VERSION || contents.maxFileBytes !== maxFileBytes || !Array.isArray(contents.files)) return new Map();
    return new Map(contents.files.map((stored) => [stored.path, hydrate(stored)]));
  } catch {
    return new Map();
  }
}

/** Writes file records atomically (a temporary file, then a rename). Failures are ignored: the cache is an optimisation. */
export async function writeIndexCache(file: string, maxFileBytes: number, records: Iterable<FileRecord>): Promise<boolean> {
  const contents: CacheContents = { version: INDEX_CACHE_VERSION, maxFileBytes, files: [...records].map(store) };
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(temporary, JSON.stringify(contents));
    await fs.rename(temporary, file);
    return true;
  } catch {
    await fs.rm(temporary, { force: true }).catch(() => undefined);
    return false;
  }
}
