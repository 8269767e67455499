import type { ReadRule } from "../access/read-rule.ts";
import type { IndexCache } from "./index-cache.ts";
import { startWalkHelper, type WalkHelper } from "./parallel-walk.ts";
import { foldersOf, walkRepository, type WalkedFile } from "./repo-walk.ts";
import { splitWalk } from "./walk-split.ts";

/**
 * From this many files in the disk cache, a second thread walks part of the repository
 * (it starts in 40-60 ms; a 50,000-file walk took 260-330 ms on one thread).
 */
export const PARALLEL_WALK_FROM_FILES = 10_000;
/** A thread started ahead of a walk that has not come this long after is stopped: what it found may be out of date. */
const AHEAD_FRESH_MS = 1_000;

/** A walk of the repository as the index keeps it: files by path, the symlinks that leave the root, the folders that hold files (found on first use). */
export interface WalkState {
  readonly files: WalkedFiles;
  readonly outsideLinks: ReadonlySet<string>;
  readonly directories: ReadonlySet<string>;
}

/**
 * The walked files in path order, found by path with a binary search: a first search
 * needs the list and a few lookups, and a map of 50,000 paths took 10-20 ms to build.
 */
export class WalkedFiles {
  readonly #list: WalkedFile[];

  /** @param list - in path order (see `comparePaths`), as a walk lists them; kept, not copied */
  constructor(list: WalkedFile[]) {
    this.#list = list;
  }

  get size(): number {
    return this.#list.length;
  }

  /** The files in path order: a new array each time (a change to a file does not change one handed out before). */
  list(): WalkedFile[] {
    return this.#list.slice();
  }

  get(path: string): WalkedFile | undefined {
    const index = this.#indexOf(path);
    return index === -1 ? undefined : this.#list[index];
  }

  has(path: string): boolean {
    return this.#indexOf(path) !== -1;
  }

  /** Takes a listed file's new version (its path must be listed). */
  set(file: WalkedFile): void {
    const index = this.#indexOf(file.path);
    if (index === -1) throw new Error(`not a walked file: ${file.path}`);
    this.#list[index] = file;
  }

  /** The paths, in path order. */
  *keys(): IterableIterator<string> {
    for (const file of this.#list) yield file.path;
  }

  // Path order is `<` on strings (comparePaths).
  #indexOf(path: string): number {
    let low = 0;
    let high = this.#list.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = this.#list[middle]!.path;
      if (at === path) return middle;
      if (at < path) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }
}

/**
 * Walks the repository (see {@link walkRepository}). When the disk cache, already read,
 * knows `parallelFrom` files or more, a worker thread walks about a third of them.
 */
function walkState(root: string, rule: ReadRule, cache: IndexCache | undefined, parallelFrom = PARALLEL_WALK_FROM_FILES): WalkState {
  const share = cache && cache.records.size + cache.filters.size >= parallelFrom ? splitWalk([cache.records.keys(), cache.filters.keys()]) : [];
  return stateOf(walkRepository(root, rule, share));
}

/**
 * The first walk of an index, with a second thread that may start ahead of it: when the
 * last walk written with the disk cache left a hint (see walk-hint.ts), the thread starts
 * walking the hint's folders before the cache is read (50-60 ms for 50,000 files), where
 * it would otherwise start once the cache had told how to share the walk.
 */
export class FirstWalk {
  readonly #root: string;
  readonly #rule: ReadRule;
  readonly #parallelFrom: number;
  readonly #startHelper: typeof startWalkHelper;
  readonly #freshMs: number;
  #ahead: { readonly folders: readonly string[]; readonly helper: WalkHelper; readonly at: number } | undefined;
  #tried = false;

  /**
   * @param options.parallelFrom - from how many cached files a walk without a thread ahead shares the walk (default {@link PARALLEL_WALK_FROM_FILES})
   * @param options.startHelper - starts the thread ahead (tests watch it)
   * @param options.freshMs - how long a thread started ahead stays usable (default 1 s)
   */
  constructor(root: string, rule: ReadRule, options: { readonly parallelFrom?: number; readonly startHelper?: typeof startWalkHelper; readonly freshMs?: number } = {}) {
    this.#root = root;
    this.#rule = rule;
    this.#parallelFrom = options.parallelFrom ?? PARALLEL_WALK_FROM_FILES;
    this.#startHelper = options.startHelper ?? startWalkHelper;
    this.#freshMs = options.freshMs ?? AHEAD_FRESH_MS;
  }

  /** Starts a thread on the hint's folders (`hint` is asked once; nothing starts after {@link walk}). */
  startAhead(hint: () => readonly string[] | undefined): void {
    if (this.#tried) return;
    this.#tried = true;
    const folders = hint();
    if (folders) this.#ahead = { folders, helper: this.#startHelper(this.#root, this.#rule.secretFiles, folders), at: Date.now() };
  }

  /** Walks, with the thread started ahead when it is fresh, else as {@link walkState} does. */
  walk(cache: IndexCache | undefined): WalkState {
    this.#tried = true;
    const ahead = this.#ahead;
    this.#ahead = undefined;
    if (ahead && Date.now() - ahead.at <= this.#freshMs) return stateOf(walkRepository(this.#root, this.#rule, ahead.folders, () => ahead.helper));
    ahead?.helper.cancel();
    return walkState(this.#root, this.#rule, cache, this.#parallelFrom);
  }

  /** Stops a thread started ahead of a walk that did not come. */
  cancel(): void {
    this.#tried = true;
    this.#ahead?.helper.cancel();
    this.#ahead = undefined;
  }
}

function stateOf(walked: ReturnType<typeof walkRepository>): WalkState {
  let directories: Set<string> | undefined;
  // Folders only for the tools that ask whether a path is one (not a search): found from the list as first made (a file's new version keeps its path).
  return {
    files: new WalkedFiles(walked.files),
    outsideLinks: new Set(walked.outsideLinks),
    get directories() {
      return (directories ??= foldersOf(walked.files));
    },
  };
}
