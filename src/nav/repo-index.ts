import type { FileRecord } from "./file-analysis.ts";
import { FileAnalyses, PARALLEL_FROM_FILES } from "./file-analyses.ts";
import type { IndexCache } from "./index-cache.ts";
import { IndexStore } from "./index-store.ts";
import { ReadRule } from "../access/read-rule.ts";
import type { WalkedFile } from "./repo-walk.ts";
import { FirstWalk, PARALLEL_WALK_FROM_FILES, type WalkState } from "./walk-state.ts";
import type { KnownStats } from "./walk-listing.ts";
import { pathUnder, type SearchFile } from "./text-scan.ts";
import type { FileFilter, FilterSink } from "./file-filters.ts";
import { cachedFileList, knownFileOf, learningSink, sameVersion, trigramTestOf, type TrigramTest } from "./index-filters.ts";
import { LaterWatch, watchWalk } from "./repo-watch.ts";
import { LinkTargets, restatListed } from "./restat-listed.ts";

/** Options of {@link RepositoryIndex}. */
export interface RepositoryIndexOptions {
  /** Directory for the on-disk cache, or `false` for none. */
  readonly cacheDir: string | false;
  /** Files larger than this are listed but not read whole. */
  readonly maxFileBytes: number;
  /** What may be read; the walk leaves out everything it refuses. Default: the default rule over the root. */
  readonly readRule?: ReadRule;
  /** From how many files in the disk cache a worker thread walks part of the repository (default 10,000). */
  readonly parallelWalkFromFiles?: number;
  /** Whether {@link RepositoryIndex.watchSoon} watches the repository's folders for changes (default true). */
  readonly watch?: boolean;
}

/** Counters that show how the index was filled. */
export interface IndexStats {
  /** Files known to the index. */
  readonly files: number;
  /** Files parsed in this process. */
  readonly analyzed: number;
  /** Files taken from the on-disk cache unchanged. */
  readonly fromCache: number;
}

/**
 * The in-memory index of one repository. The file list is walked on first
 * use; each file is analysed (language, lines, symbols) on first need, or
 * taken from the on-disk cache when its path, size and mtime are unchanged.
 */
export class RepositoryIndex {
  /** The repository root, as a real absolute path. */
  readonly root: string;
  readonly #rule: ReadRule;
  #walk: WalkState | undefined;
  // The latest walk of this process: kept when a change drops `#walk` (the next use walks again).
  #lastWalk: WalkState | undefined;
  readonly #linkTargets = new LinkTargets();
  readonly #watch: LaterWatch;
  readonly #firstWalk: FirstWalk;
  readonly #store: IndexStore;
  readonly #analyses: FileAnalyses;
  // Filters searches made of files no one analysed (see file-filters.ts).
  readonly #filters = new Map<string, FileFilter>();
  #all: Promise<FileRecord[]> | undefined;
  #searchFiles: SearchFile[] | undefined;
  // The record found for a file object of a search's list (see knownRecordOf).
  readonly #recordOfFile = new WeakMap<SearchFile, FileRecord>();
  #dirty = false;

  constructor(root: string, options: RepositoryIndexOptions) {
    this.root = root;
    this.#rule = options.readRule ?? new ReadRule(root);
    this.#watch = new LaterWatch(options.watch ?? true, () => watchWalk(root, this.#rule, () => this.#walk));
    const parallelFrom = options.parallelWalkFromFiles ?? PARALLEL_WALK_FROM_FILES;
    this.#store = new IndexStore(options.cacheDir, root, options.maxFileBytes, this.#rule.secretFiles, parallelFrom);
    // RLMKIT_WALK_LISTING=0: every first walk lists every folder (for a file system whose folders' times do not follow their entries).
    const keepsListing = this.#store.enabled && process.env.RLMKIT_WALK_LISTING !== "0";
    const listing = keepsListing ? { listing: this.#store } : {};
    this.#firstWalk = new FirstWalk(root, this.#rule, { parallelFrom, ...listing });
    this.#analyses = new FileAnalyses(root, options.maxFileBytes, this.#store, () => this.#loadCache(), () => void (this.#dirty = true));
  }

  /** The walked files, in path order. */
  files(): WalkedFile[] {
    return this.#ensureWalk().files.list();
  }

  /** The walked file at a path, if the path is an indexed file. */
  file(relative: string): WalkedFile | undefined {
    return this.#ensureWalk().files.get(relative);
  }

  /** True when the path is a directory that holds indexed files ("" is the root). */
  isDirectory(relative: string): boolean {
    return relative === "" || this.#ensureWalk().directories.has(relative);
  }

  /** True when the path is a symlink that leaves the repository. */
  isOutsideLink(relative: string): boolean {
    return this.#ensureWalk().outsideLinks.has(relative);
  }

  /**
   * The files as the search workers need them. The list keeps its identity while
   * nothing changes, and is rebuilt once a file is seen to change, so the worker
   * re-reads that file instead of searching its old text.
   *
   * @param known - files' stats a search took as it ran, for the first walk (see `FirstWalk.walk`)
   */
  searchFiles(known?: KnownStats): SearchFile[] {
    if (!this.#walk) this.#ensureWalk(known);
    return (this.#searchFiles ??= this.files());
  }

  /**
   * The file list of the disk cache, for a search to start on while the repository is
   * walked: the cached records and filters (path, size, mtime, ctime) in path order, when
   * the repository has not been walked yet and the cache was written under the same
   * secret-file patterns; else `undefined`. `complete` when the list has as many files as
   * the walk written with the cache listed (its walk hint tells; a process that only searched
   * leaves out the files it never read). The caller compares it with the walk before trusting
   * what it found.
   */
  async cachedSearchFiles(): Promise<{ readonly files: SearchFile[]; readonly complete: boolean } | undefined> {
    if (this.#lastWalk || !this.#store.enabled) return undefined;
    const files = cachedFileList(await this.#loadCacheContents(), this.#rule.secretFiles);
    return files && { files, complete: files.length === this.#store.lastWalkFiles() };
  }

  /**
   * Where a search leaves a trigram filter for each file it reads whole that the index
   * knows nothing of for that version: kept beside the records and written to the disk
   * cache, so the next process's first search can skip the file. Without a disk cache, none:
   * the workers soon hold every text, and the filters would be made for nothing.
   */
  async filterSink(): Promise<FilterSink | undefined> {
    if (!this.#store.enabled) return undefined;
    const known = knownFileOf(this.#analyses.records, this.#filters, await this.#loadCacheContents());
    return learningSink(known, this.#filters, () => void (this.#dirty = true));
  }

  /**
   * A test that is false only for a file the index knows cannot hold text with all
   * these trigrams: its record (in memory, or in the disk cache) has the file's size,
   * mtime and ctime (which no copy can set back, so a file rewritten with its old size
   * and mtime is read), and says it is binary or has a trigram filter without one of
   * them. When the repository was walked before this call, its sizes and times are
   * those of an earlier moment: a file is then `stat`ed again before it is ruled out
   * (a `stat` costs a third of reading a file). A first search reads only the files
   * the test passes.
   */
  async trigramTest(trigrams: Uint32Array): Promise<TrigramTest> {
    const walkedBefore = this.#lastWalk !== undefined;
    const known = knownFileOf(this.#analyses.records, this.#filters, await this.#loadCacheContents());
    return trigramTestOf(known, trigrams, walkedBefore ? (file) => this.absolute(file.path) : undefined);
  }

  /** The absolute path of an indexed file. */
  absolute(relative: string): string {
    return pathUnder(this.root, relative);
  }

  /**
   * The analysis of one file, re-done if the file changed since it was last
   * analysed; undefined for a file the walk did not list, or one that changed into
   * what the read rule refuses (a link to a secret, say). With `recheck` false the
   * file is not `stat`ed again: the caller trusts the index (a search, whose
   * workers re-check sizes as they read).
   */
  async record(relative: string, recheck = true): Promise<FileRecord | undefined> {
    const known = this.#ensureWalk().files.get(relative);
    if (!known) return undefined;
    const current = recheck ? this.#restat(relative, known) : known;
    return current ? this.#analyses.analyze(current) : undefined;
  }

  /**
   * Once walked, watches the repository's folders from a later turn of the event loop (see repo-watch.ts), so that
   * {@link refresh} finds what changed and a long-lived process (an MCP server) answers from the repository as it is.
   */
  watchSoon(): void {
    if (this.#walk) this.#watch.soon();
  }

  /** Takes in what the watch saw change (see {@link watchSoon}): changed files are stated again; new entries or ignore rules make a new walk. */
  async refresh(): Promise<void> {
    const changes = await this.#watch.changes();
    if (!changes) return;
    if (changes.listing) {
      // A new walk reads the ignore files afresh: one changed, or a folder came that may bring its own.
      this.#rule.forgetIgnoreFiles();
      return this.#forgetWalk();
    }
    // A listed link may lead to a file that changed under its own path: the links to it are stated again too.
    const links = this.#walk ? this.#linkTargets.linksTo(this.root, this.#walk, changes.files) : [];
    for (const relative of [...changes.files, ...links]) {
      const known = this.#walk?.files.get(relative);
      if (known) this.#restat(relative, known);
    }
  }

  /**
   * Every file analysed; the first call builds the whole index, on worker
   * threads when many files need parsing, and saves the cache.
   */
  async records(): Promise<FileRecord[]> {
    this.#all ??= (async () => {
      // The cache first: in a large repository it lets a second thread walk part of it.
      const cache = await this.#loadCache();
      const files = this.files();
      const results: FileRecord[] = new Array(files.length);
      const missing: number[] = [];
      for (let position = 0; position < files.length; position++) {
        const file = files[position];
        // Fast path without a promise per file: already in memory, or unchanged in the disk cache.
        const known = this.#analyses.records.get(file.path);
        if (known && sameVersion(known, file)) {
          results[position] = known;
          continue;
        }
        const cached = cache.get(file.path);
        if (cached && sameVersion(cached, file)) {
          results[position] = this.#analyses.takeCached(cached);
          continue;
        }
        missing.push(position);
      }
      const analyzed = await this.#analyses.analyzeMany(missing.map((position) => files[position]));
      missing.forEach((position, task) => (results[position] = analyzed[task]));
      await this.flush();
      return results;
    })();
    try {
      return await this.#all;
    } finally {
      this.#all = undefined;
    }
  }

  /**
   * The analysis of a file in memory, or in the disk cache once it has been read, and
   * unchanged as far as the index knows (no `stat`); else `undefined`: the synchronous path
   * of `record(path, false)`, which a search takes for each file with matches.
   */
  knownRecord(relative: string): FileRecord | undefined {
    const file = this.#walk?.files.get(relative);
    if (!file) return undefined;
    const known = this.#analyses.records.get(relative);
    if (known && sameVersion(known, file)) return known;
    const cached = this.#store.loaded()?.records.get(relative);
    return cached && sameVersion(cached, file) ? this.#analyses.takeCached(cached) : undefined;
  }

  /**
   * {@link knownRecord} of a file of a search's list, remembered for that object: a repeated search
   * asks for the same files, and a lookup by path costs a binary search and two maps (20,000 files
   * with matches: 30 ms). A file's other version is another object, of a new list (see `searchFiles`).
   */
  knownRecordOf(file: SearchFile): FileRecord | undefined {
    let record = this.#recordOfFile.get(file);
    if (record && this.#analyses.records.get(file.path) === record) return record;
    record = this.knownRecord(file.path);
    if (record && sameVersion(record, file)) this.#recordOfFile.set(file, record);
    return record;
  }

  /**
   * Makes sure the files at these paths are analysed, on worker threads when
   * many need parsing (a search matching in many files not yet indexed). The
   * index is trusted: files are not `stat`ed again.
   */
  async prepare(paths: Iterable<string>): Promise<void> {
    const walk = this.#ensureWalk();
    const cache = await this.#loadCache();
    const missing: WalkedFile[] = [];
    for (const relative of paths) {
      const file = walk.files.get(relative);
      if (!file) continue;
      const known = this.#analyses.records.get(relative) ?? cache.get(relative);
      if (!known || !sameVersion(known, file)) missing.push(file);
    }
    if (missing.length >= PARALLEL_FROM_FILES) await this.#analyses.analyzeMany(missing);
  }

  /** How the index was filled so far. */
  stats(): IndexStats {
    return { files: this.#lastWalk ? this.#ensureWalk().files.size : 0, analyzed: this.#analyses.analyzed, fromCache: this.#analyses.fromCache };
  }

  /**
   * Writes the cache if anything changed, then lets go of the files symbols are
   * read from (the cache's, and the spills of large builds): symbols not read
   * before are then unavailable.
   */
  async close(): Promise<void> {
    this.#watch.close();
    this.#firstWalk.cancel();
    await this.flush();
    await this.#store.close();
  }

  /** Writes the on-disk cache if anything was analysed or learned since the last write. */
  async flush(): Promise<void> {
    if (!this.#dirty || !this.#store.enabled) return;
    this.#dirty = false;
    // After a change forgot the walk, the last one's list (the next process walks anyway).
    const walk = this.#walk ?? this.#lastWalk;
    if (walk) await this.#store.writeCache(this.#analyses.records, this.#filters, walk.files);
  }

  #ensureWalk(known?: KnownStats): WalkState {
    if (this.#walk) return this.#walk;
    // A walk that comes before the cache is read (a first `nav_read`, say) shares the work as the hint says too.
    this.#firstWalk.startAhead(() => this.#store.walkHint());
    this.#walk = this.#lastWalk = this.#firstWalk.walk(this.#store.loaded(), known);
    this.#watch.follow(this.#walk.folders);
    return this.#walk;
  }

  // The walk is made again on next use, as the first was (from a kept listing when it still holds).
  #forgetWalk(): void {
    this.#walk = undefined;
    this.#searchFiles = undefined;
  }

  // A listed file stated again (see restatListed); a new version makes a new search list, and what is no longer a file a new walk.
  #restat(relative: string, known: WalkedFile): WalkedFile | undefined {
    const current = restatListed(this.root, this.#rule, this.#walk!.files, relative, known);
    if (current !== known) this.#searchFiles = undefined;
    if (current === null) this.#forgetWalk();
    return current ?? undefined;
  }

  async #loadCache(): Promise<ReadonlyMap<string, FileRecord>> {
    return (await this.#loadCacheContents()).records;
  }

  #loadCacheContents(): Promise<IndexCache> {
    // A second walking thread, when the cache's walk hint names its folders, walks while the cache is read.
    this.#firstWalk.startAhead(() => this.#store.walkHint());
    return this.#store.contents();
  }
}
