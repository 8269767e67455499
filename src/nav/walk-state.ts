import type { ReadRule } from "../access/read-rule.ts";
import type { IndexCache } from "./index-cache.ts";
import { foldersOf, walkRepository, type WalkedFile } from "./repo-walk.ts";
import { splitWalk } from "./walk-split.ts";

/**
 * From this many files in the disk cache, a second thread walks part of the repository
 * (it starts in 40-60 ms; a 50,000-file walk took 260-330 ms on one thread).
 */
export const PARALLEL_WALK_FROM_FILES = 10_000;

/** A walk of the repository as the index keeps it: files by path, the symlinks that leave the root, the folders that hold files. */
export interface WalkState {
  readonly files: Map<string, WalkedFile>;
  readonly outsideLinks: Set<string>;
  readonly directories: Set<string>;
}

/**
 * Walks the repository (see {@link walkRepository}). When the disk cache, already read,
 * knows `parallelFrom` files or more, a worker thread walks about a third of them.
 */
export function walkState(root: string, rule: ReadRule, cache: IndexCache | undefined, parallelFrom = PARALLEL_WALK_FROM_FILES): WalkState {
  const share = cache && cache.records.size + cache.filters.size >= parallelFrom ? splitWalk([cache.records.keys(), cache.filters.keys()]) : [];
  const walked = walkRepository(root, rule, share);
  return { files: new Map(walked.files.map((file) => [file.path, file])), outsideLinks: new Set(walked.outsideLinks), directories: foldersOf(walked.files) };
}
