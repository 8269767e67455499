import type { ReadRule } from "../access/read-rule.ts";
import type { IndexCache } from "./index-cache.ts";
import { startWalkHelper, type WalkHelper } from "./parallel-walk.ts";
import { foldersOf, helperShare, walkRepository, type RepositoryWalk } from "./repo-walk.ts";
import { WalkedFiles } from "./walked-files.ts";
import { LISTING_SETTLED_MS, listingOf, replayListing, type KnownStats, type WalkListing } from "./walk-listing.ts";
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
  /** Every folder the walk listed ("" is the root), those that hold no file too. */
  readonly folders: readonly string[];
  /** The symlinks the walk let through (a listed one leads to a file that may be listed under its own path too). */
  readonly links: readonly string[];
  readonly outsideLinks: ReadonlySet<string>;
  readonly directories: ReadonlySet<string>;
}

/**
 * Walks the repository (see {@link walkRepository}). When the disk cache, already read,
 * knows `parallelFrom` files or more, a worker thread walks about a third of them.
 */
function sharedWalk(root: string, rule: ReadRule, cache: IndexCache | undefined, parallelFrom = PARALLEL_WALK_FROM_FILES): RepositoryWalk {
  const share = cache && cache.records.size + cache.filters.size >= parallelFrom ? splitWalk([cache.records.keys(), cache.filters.keys()]) : [];
  return walkRepository(root, rule, share);
}

/** Where a walk's listing is kept between processes (see walk-listing.ts). */
export interface ListingStore {
  /** The listing kept, if any (read once). */
  read(): WalkListing | undefined;
  /** Keeps the listing `make` answers, if any: called in the background, once the caller's work is done. */
  write(make: () => WalkListing | undefined): void;
}

/**
 * The first walk of an index. A listing kept by an earlier walk (see walk-listing.ts) is used when
 * nothing it depends on changed. Else the repository is walked, with a second thread that may
 * start ahead of it: when the last walk written with the disk cache left a hint (see
 * walk-hint.ts), the thread starts walking the hint's folders before the cache is read (50-60 ms
 * for 50,000 files), where it would otherwise start once the cache had told how to share the
 * walk. When the walk comes before the cache is read, the index starts the thread on the hint
 * right before it. A walk that can be trusted later is kept as the new listing.
 */
export class FirstWalk {
  readonly #root: string;
  readonly #rule: ReadRule;
  readonly #parallelFrom: number;
  readonly #startHelper: typeof startWalkHelper;
  readonly #freshMs: number;
  readonly #listing: ListingStore | undefined;
  readonly #settledMs: number;
  #ahead: Ahead | undefined;
  #tried = false;

  /**
   * @param options.parallelFrom - from how many cached files a walk without a thread ahead shares the walk (default {@link PARALLEL_WALK_FROM_FILES})
   * @param options.startHelper - starts the thread ahead (tests watch it)
   * @param options.freshMs - how long a thread started ahead stays usable (default 500 ms)
   * @param options.listing - where the walk's listing is kept (none: every first walk lists every folder)
   * @param options.settledMs - how long before a walk its folders must have last changed for it to be kept (default {@link LISTING_SETTLED_MS})
   */
  constructor(
    root: string,
    rule: ReadRule,
    options: { readonly parallelFrom?: number; readonly startHelper?: typeof startWalkHelper; readonly freshMs?: number; readonly listing?: ListingStore; readonly settledMs?: number } = {},
  ) {
    this.#root = root;
    this.#rule = rule;
    this.#parallelFrom = options.parallelFrom ?? PARALLEL_WALK_FROM_FILES;
    this.#startHelper = options.startHelper ?? startWalkHelper;
    this.#freshMs = options.freshMs ?? AHEAD_FRESH_MS;
    this.#listing = options.listing;
    this.#settledMs = options.settledMs ?? LISTING_SETTLED_MS;
  }

  /** Starts a thread on the hint's folders (`hint` is asked once; nothing starts after {@link walk}, nor when a listing is kept). */
  startAhead(hint: () => readonly string[] | undefined): void {
    if (this.#tried) return;
    this.#tried = true;
    // A kept listing usually holds: the walk then lists no folder. (When it does not, the walk shares the work as the cache says.)
    if (this.#listing?.read()) return;
    // The folders as the walk will hand them out, so the thread walks no folder twice.
    const folders = helperShare(hint() ?? []);
    if (folders.length > 0) this.#ahead = { folders, helper: this.#startHelper(this.#root, this.#rule.options, folders), at: Date.now() };
  }

  /**
   * The kept listing when it holds; else a walk, with the thread started ahead when it is fresh, or sharing the work as the cache says.
   *
   * @param known - files' stats a search took as it ran: a kept listing's files among them are not stated again
   */
  walk(cache: IndexCache | undefined, known?: KnownStats): WalkState {
    this.#tried = true;
    const ahead = this.#ahead;
    this.#ahead = undefined;
    const listing = this.#listing?.read();
    const kept = listing && replayListing(this.#root, listing, this.#rule, known);
    if (kept) {
      ahead?.helper.cancel();
      return stateOf(kept, listing!.folders, listing!.links);
    }
    // When the walk began reading: a thread ahead of it, or the rule (which keeps the ignore files as it read them), may have begun before.
    // (A thread ahead is used for at most AHEAD_FRESH_MS, well under LISTING_SETTLED_MS: its term only guards that relation.)
    const startedAt = Math.min(Date.now(), ahead?.at ?? Infinity, this.#rule.firstReadAt ?? Infinity);
    const walked = this.#walkNow(ahead, cache);
    // Checked later: the folders' `lstat`s and the write are no part of the answer the walk is for.
    this.#listing?.write(() => listingOf(this.#root, walked, this.#rule, startedAt, this.#settledMs));
    return stateOf(walked, walked.trace.folders, walked.trace.links);
  }

  #walkNow(ahead: Ahead | undefined, cache: IndexCache | undefined): RepositoryWalk {
    if (ahead && Date.now() - ahead.at <= this.#freshMs) {
      try {
        return walkRepository(this.#root, this.#rule, ahead.folders, () => ahead.helper);
      } finally {
        // Collected by the walk, which stops it; stopped here too in any case.
        ahead.helper.cancel();
      }
    }
    ahead?.helper.cancel();
    return sharedWalk(this.#root, this.#rule, cache, this.#parallelFrom);
  }

  /** Stops a thread started ahead of a walk that did not come. */
  cancel(): void {
    this.#tried = true;
    this.#ahead?.helper.cancel();
    this.#ahead = undefined;
  }
}

// A thread started ahead of the walk, on these folders, at this time.
interface Ahead {
  readonly folders: readonly string[];
  readonly helper: WalkHelper;
  readonly at: number;
}

function stateOf(walked: Pick<RepositoryWalk, "files" | "outsideLinks">, folders: readonly string[], links: readonly string[]): WalkState {
  let directories: Set<string> | undefined;
  // Folders only for the tools that ask whether a path is one (not a search): found from the list as first made (a file's new version keeps its path).
  return {
    files: new WalkedFiles(walked.files),
    folders,
    links,
    outsideLinks: new Set(walked.outsideLinks),
    get directories() {
      return (directories ??= foldersOf(walked.files));
    },
  };
}
