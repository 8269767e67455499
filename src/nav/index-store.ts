import fs from "node:fs";
import type { FileRecord } from "./file-analysis.ts";
import type { FileFilter } from "./file-filters.ts";
import { sameVersion } from "./index-filters.ts";
import { indexCacheFile, readIndexCache, writeIndexCache, type IndexCache } from "./index-cache.ts";
import type { WalkedFiles } from "./walked-files.ts";
import { SymbolSpill } from "./symbol-store.ts";
import { hintFolders, parseWalkHint, walkHintFileOf, writeWalkHint, type WalkHint } from "./walk-hint.ts";
import { listingFileOf, readListing, writeListing, type WalkListing } from "./walk-listing.ts";
import type { ListingStore } from "./walk-state.ts";

const NO_CACHE: IndexCache = { records: new Map(), filters: new Map(), secretFiles: [], close: () => undefined };

/**
 * What the index keeps on disk for one repository root: its disk cache (see
 * index-cache.ts), read once when first needed and written back merged with
 * what this process learned, and the spill files its large builds keep symbols
 * in (see symbol-store.ts), which folders a second walking thread takes (see
 * walk-hint.ts), and the last walk's listing (see walk-listing.ts). Without a cache
 * directory, the cache reads as empty and nothing is written or spilled.
 */
export class IndexStore implements ListingStore {
  readonly #dir: string | false;
  readonly #file: string | undefined;
  readonly #maxFileBytes: number;
  readonly #secretFiles: readonly string[];
  readonly #parallelWalkFrom: number;
  #contents: Promise<IndexCache> | undefined;
  // The walk hint as first read (`null`: none); read once for the thread it starts and the list it counts, and again after a write.
  #hint: WalkHint | null | undefined;
  #loaded: IndexCache | undefined;
  // The listing as first read (`null`: none), and its write in progress.
  #listing: WalkListing | null | undefined;
  #listingWrite: Promise<void> | undefined;
  #closed = false;
  readonly #spills: SymbolSpill[] = [];

  /**
   * @param secretFiles - the secret-file patterns of the walk, written with the cache (its file list is used only under the same ones)
   * @param parallelWalkFrom - from how many files a walk hint is written and used
   */
  constructor(cacheDir: string | false, root: string, maxFileBytes: number, secretFiles: readonly string[], parallelWalkFrom: number) {
    this.#dir = cacheDir;
    this.#file = cacheDir === false ? undefined : indexCacheFile(cacheDir, root);
    this.#maxFileBytes = maxFileBytes;
    this.#secretFiles = secretFiles;
    this.#parallelWalkFrom = parallelWalkFrom;
  }

  /** True when there is a cache directory. */
  get enabled(): boolean {
    return this.#file !== undefined;
  }

  /** The disk cache as this process first read it (empty when there is none, or it cannot be trusted). */
  contents(): Promise<IndexCache> {
    if (this.#file === undefined) return Promise.resolve(NO_CACHE);
    this.#contents ??= readIndexCache(this.#file, this.#maxFileBytes).then((cache) => (this.#loaded = cache));
    return this.#contents;
  }

  /** The disk cache, if it has been read already (see {@link contents}). */
  loaded(): IndexCache | undefined {
    return this.#loaded;
  }

  /** The folders the last walk written with the cache left for a second thread, if it listed enough files (read synchronously: a few hundred bytes). */
  walkHint(): string[] | undefined {
    return hintFolders(this.#readHint(), this.#parallelWalkFrom);
  }

  /** How many files the walk written with the cache listed, when its hint tells (see walk-hint.ts). */
  lastWalkFiles(): number | undefined {
    return this.#readHint()?.files;
  }

  #readHint(): WalkHint | undefined {
    if (this.#hint === undefined) this.#hint = (this.#file !== undefined && parseWalkHint(walkHintFileOf(this.#file))) || null;
    return this.#hint ?? undefined;
  }

  /** The last walk's listing, if one was kept (read synchronously, once). */
  read(): WalkListing | undefined {
    if (this.#listing === undefined) this.#listing = (this.#file !== undefined && readListing(listingFileOf(this.#file))) || null;
    return this.#listing ?? undefined;
  }

  /** Keeps a walk's listing for the next process: made and written once this thread is free (a search answers first), and waited for by {@link close}. */
  write(make: () => WalkListing | undefined): void {
    const file = this.#file;
    // After close, nothing waits for a write: none starts (the caller may be removing the cache directory).
    if (file === undefined || this.#closed) return;
    const previous = this.#listingWrite ?? Promise.resolve();
    const keep = async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      const listing = make();
      // A listing that did not hold (the walk ran) and has no successor would only be read and checked again by each process.
      if (listing) await writeListing(listingFileOf(file), listing);
      else await fs.promises.rm(listingFileOf(file), { force: true });
    };
    // Only ever a shortcut: a listing that cannot be made or written leaves the next process to walk.
    this.#listingWrite = previous.then(keep).catch(() => undefined);
  }

  /** A new spill file beside the cache, or `undefined` (no cache directory, or none can be made: symbols then stay in memory). */
  spill(): SymbolSpill | undefined {
    if (this.#dir === false) return undefined;
    try {
      const spill = SymbolSpill.open(this.#dir);
      this.#spills.push(spill);
      return spill;
    } catch {
      return undefined;
    }
  }

  /**
   * Writes the cache: the records read from it for files the walk still lists, this process's
   * records over them, and the filters of files as the walk lists them, unless a record of that
   * version is kept. Then the walk hint, from the walk's file list.
   */
  async writeCache(records: ReadonlyMap<string, FileRecord>, filters: ReadonlyMap<string, FileFilter>, walked: Pick<WalkedFiles, "get" | "has" | "keys" | "size">): Promise<void> {
    if (this.#file === undefined) return;
    const cache = await this.contents();
    const merged = new Map<string, FileRecord>();
    for (const [key, record] of cache.records) if (walked.has(key)) merged.set(key, record);
    for (const [key, record] of records) merged.set(key, record);
    const kept = new Map<string, FileFilter>();
    for (const source of [cache.filters, filters]) {
      for (const [key, filter] of source) {
        const file = walked.get(key);
        const record = merged.get(key);
        if (file && sameVersion(filter, file) && !(record && sameVersion(record, filter))) kept.set(key, filter);
      }
    }
    await writeIndexCache(this.#file, this.#maxFileBytes, this.#secretFiles, merged.values(), kept.values());
    // Only a hint: a cache without one walks as before.
    await writeWalkHint(walkHintFileOf(this.#file), walked.keys(), walked.size, this.#parallelWalkFrom).catch(() => undefined);
    this.#hint = undefined;
  }

  /** Lets go of the spill files and the cache's open files: symbols not read before are then unavailable. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#listingWrite;
    for (const spill of this.#spills.splice(0)) spill.close();
    (await this.#contents)?.close();
  }
}
