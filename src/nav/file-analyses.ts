import { analyzeFile, unreadRecord, type FileRecord } from "./file-analysis.ts";
import { withLazySymbols } from "./cached-record.ts";
import { sameVersion } from "./index-filters.ts";
import { analyzeInWorkers } from "./index-workers.ts";
import type { IndexStore } from "./index-store.ts";
import type { WalkedFile } from "./repo-walk.ts";
import { pathUnder } from "./text-scan.ts";

/** Below this many files to parse, starting workers (each loading tree-sitter) costs more than it saves. */
export const PARALLEL_FROM_FILES = 16;

/**
 * The analysed files of one repository index: each file's record (language,
 * lines, symbols) in memory, taken from the disk cache when its version there is
 * the file's, else parsed here (one at a time) or on worker threads (many at
 * once). Concurrent requests for the same version of a file share one analysis.
 */
export class FileAnalyses {
  /** The records in memory, by path: the newest version of each file the index has analysed or taken from the cache. */
  readonly records = new Map<string, FileRecord>();
  readonly #pending = new Map<string, Promise<FileRecord>>();
  readonly #root: string;
  readonly #maxFileBytes: number;
  readonly #store: IndexStore;
  readonly #cache: () => Promise<ReadonlyMap<string, FileRecord>>;
  readonly #changed: () => void;
  #analyzed = 0;
  #fromCache = 0;

  /**
   * @param root - the repository root, a real absolute path
   * @param maxFileBytes - files larger than this are listed but not read whole
   * @param store - the disk cache, whose spill file takes the symbols of files parsed on workers
   * @param cache - the disk cache's records (read once by the caller)
   * @param changed - called whenever a record is parsed here, so the disk cache is written again
   */
  constructor(root: string, maxFileBytes: number, store: IndexStore, cache: () => Promise<ReadonlyMap<string, FileRecord>>, changed: () => void) {
    this.#root = root;
    this.#maxFileBytes = maxFileBytes;
    this.#store = store;
    this.#cache = cache;
    this.#changed = changed;
  }

  /** Files parsed in this process. */
  get analyzed(): number {
    return this.#analyzed;
  }

  /** Files taken from the disk cache unchanged. */
  get fromCache(): number {
    return this.#fromCache;
  }

  /** Takes a record of the disk cache that the caller found to be the file's current version. */
  takeCached(record: FileRecord): FileRecord {
    this.records.set(record.path, record);
    this.#fromCache++;
    return record;
  }

  /** The record of this version of a file: from memory, from the disk cache, or parsed now. */
  async analyze(file: WalkedFile): Promise<FileRecord> {
    const existing = this.records.get(file.path);
    if (existing && sameVersion(existing, file)) return existing;
    const pendingKey = `${file.path}\0${file.size}\0${file.mtimeMs}\0${file.ctimeMs}`;
    let pending = this.#pending.get(pendingKey);
    if (!pending) {
      pending = (async () => {
        const cached = (await this.#cache()).get(file.path);
        if (cached && sameVersion(cached, file)) return this.takeCached(cached);
        const record = await analyzeFile(pathUnder(this.#root, file.path), file, this.#maxFileBytes);
        // The path led to another file: nothing is known of the one listed, and nothing is kept (the index restates it when asked again).
        if (!record) return unreadRecord(file);
        this.#analyzed++;
        this.#changed();
        this.records.set(file.path, record);
        return record;
      })();
      this.#pending.set(pendingKey, pending);
    }
    try {
      return await pending;
    } finally {
      this.#pending.delete(pendingKey);
    }
  }

  /** Analyses files that are neither in memory nor in the disk cache, on worker threads when there are many. */
  async analyzeMany(files: readonly WalkedFile[]): Promise<FileRecord[]> {
    if (files.length < PARALLEL_FROM_FILES) return Promise.all(files.map((file) => this.analyze(file)));
    const results: FileRecord[] = new Array(files.length);
    const tasks = files.map((file) => ({ absolute: pathUnder(this.#root, file.path), file }));
    // With a cache, the symbols go to a spill file beside it as they arrive instead of staying in memory
    // (where no file can be made, they stay in memory).
    const spill = this.#store.spill();
    await analyzeInWorkers(tasks, this.#maxFileBytes, (task, result) => {
      const at = spill?.append(result.symbolPiece);
      const record = withLazySymbols(result.record, at ? { pieces: spill!, at } : result.symbolPiece, result.record.grams);
      results[task] = record;
      if (result.unread) return;
      this.records.set(record.path, record);
      this.#analyzed++;
      this.#changed();
    });
    return results;
  }
}
