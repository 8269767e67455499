import type { ReadRule } from "../access/read-rule.ts";
import type { IndexCache } from "./index-cache.ts";
import { startWalkHelper, type WalkHelper } from "./parallel-walk.ts";
import { foldersOf, helperShare, walkRepository } from "./repo-walk.ts";
import { WalkedFiles } from "./walked-files.ts";
import { splitWalk } from "./walk-split.ts";

/**
 * From this many files in the disk cache, a second thread walks part of the repository
 * (it starts in 40-60 ms; a 50,000-file walk took 260-330 ms on one thread).
 */
export const PARALLEL_WALK_FROM_FILES = 10_000;
/**
 * A thread started ahead of a walk that has not come this long after is stopped: what it found
 * may be out of date (a search before the walk trusts the walk's sizes and times). Reading the
 * cache of 50,000 files and testing its filters takes about 100 ms.
 */
const AHEAD_FRESH_MS = 500;

/** A walk of the repository as the index keeps it: files by path, the symlinks that leave the root, the folders that hold files (found on first use). */
export interface WalkState {
  readonly files: WalkedFiles;
  readonly outsideLinks: ReadonlySet<string>;
  readonly directories: ReadonlySet<string>;
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
 * it would otherwise start once the cache had told how to share the walk. When the walk comes
 * before the cache is read, the index starts the thread on the hint right before it.
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
   * @param options.freshMs - how long a thread started ahead stays usable (default 500 ms)
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
    // The folders as the walk will hand them out, so the thread walks no folder twice.
    const folders = helperShare(hint() ?? []);
    if (folders.length > 0) this.#ahead = { folders, helper: this.#startHelper(this.#root, this.#rule.secretFiles, folders), at: Date.now() };
  }

  /** Walks, with the thread started ahead when it is fresh, else as {@link walkState} does. */
  walk(cache: IndexCache | undefined): WalkState {
    this.#tried = true;
    const ahead = this.#ahead;
    this.#ahead = undefined;
    if (ahead && Date.now() - ahead.at <= this.#freshMs) {
      try {
        return stateOf(walkRepository(this.#root, this.#rule, ahead.folders, () => ahead.helper));
      } finally {
        // Collected by the walk, which stops it; stopped here too in any case.
        ahead.helper.cancel();
      }
    }
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
