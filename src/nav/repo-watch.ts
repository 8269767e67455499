import fs from "node:fs";
import path from "node:path";
import type { ReadRule } from "../access/read-rule.ts";
import type { WalkState } from "./walk-state.ts";

/** What changed in a repository since the index last asked, as the watchers of its folders saw it. */
export interface WatchedChanges {
  /** Listed files that were written, removed or replaced. */
  readonly files: ReadonlySet<string>;
  /**
   * An entry the walk did not list appeared, a folder went or was renamed, or a `.gitignore` changed: the repository
   * is to be walked again, under ignore files read again.
   */
  readonly listing: boolean;
}

/** What a watch asks the index about an entry that changed. */
export interface WatchedIndex {
  /** True for a file the walk listed. */
  isFile(relative: string): boolean;
  /** True for a folder the walk listed. */
  isFolder(relative: string): boolean;
  /** True for what the read rule refuses (`.git`, an ignored or a secret file): no walk lists it, so its changes do not count. */
  isRefused(relative: string): boolean;
}

/**
 * Watches the folders of a repository's walk, one `fs.watch` each (inotify on Linux, which reports the
 * writes, additions, removals and renames of a folder's entries), and keeps what changed until the
 * index asks ({@link take}). It tells only that something changed: the index then states the files
 * again, or walks again. Its watchers never keep the process alive.
 */
export class RepositoryWatch {
  readonly #root: string;
  readonly #index: WatchedIndex;
  readonly #watchers = new Map<string, fs.FSWatcher>();
  #files = new Set<string>();
  #listing = false;
  #closed = false;

  constructor(root: string, index: WatchedIndex) {
    this.#root = root;
    this.#index = index;
  }

  /**
   * Watches these folders ("" is the root) and no others. False when one could not be watched for a reason other
   * than its being gone (the system's limit on watches, say): then the watch is closed, and tells nothing more.
   */
  watch(folders: Iterable<string>): boolean {
    if (this.#closed) return false;
    const wanted = new Set(folders);
    for (const [folder, watcher] of this.#watchers) {
      if (wanted.has(folder)) continue;
      watcher.close();
      this.#watchers.delete(folder);
    }
    for (const folder of wanted) {
      if (this.#watchers.has(folder)) continue;
      let watcher: fs.FSWatcher;
      try {
        watcher = fs.watch(path.join(this.#root, folder), { persistent: false }, (event, name) => {
          // Nothing may throw out of an event (it would end the process): what cannot be told counts as a change of entries.
          try {
            this.#changed(folder, event, name);
          } catch {
            this.#listing = true;
          }
        });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // Gone, or no longer a folder, since the walk: the next walk finds that.
        if (code === "ENOENT" || code === "ENOTDIR") {
          this.#listing = true;
          continue;
        }
        this.close();
        return false;
      }
      // A folder removed while watched: its watcher ends, and the walk is to be made again.
      watcher.on("error", () => {
        watcher.close();
        this.#watchers.delete(folder);
        this.#listing = true;
      });
      this.#watchers.set(folder, watcher);
    }
    return true;
  }

  /** Counts as changed everything the walk listed (for changes made before the watchers were in place). */
  markListing(): void {
    this.#listing = true;
  }

  /** The changes seen since the last call, or `undefined` when there were none. */
  take(): WatchedChanges | undefined {
    if (!this.#listing && this.#files.size === 0) return undefined;
    const changes = { files: this.#files, listing: this.#listing };
    this.#files = new Set();
    this.#listing = false;
    return changes;
  }

  /** Stops every watcher. */
  close(): void {
    this.#closed = true;
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }

  #changed(folder: string, event: string, name: string | Buffer | null): void {
    // Without a name (the system's queue of events overflowed, say), anything may have changed.
    if (name === null) {
      this.#listing = true;
      return;
    }
    const entry = String(name);
    const relative = folder ? `${folder}/${entry}` : entry;
    // The folder itself went (Linux names it by its own name): its watcher is dead, and one made at the same path
    // for a folder made there again would be skipped as already watching.
    if (event === "rename" && folder !== "" && entry === path.basename(folder)) {
      // The folders below it went with it (a watcher follows a folder that is moved, and none of theirs says so).
      for (const [watched, watcher] of this.#watchers) {
        if (watched !== folder && !watched.startsWith(`${folder}/`)) continue;
        watcher.close();
        this.#watchers.delete(watched);
      }
      this.#listing = true;
      return;
    }
    // A listed file, but one whose change is the rule's: a new walk under it.
    if (entry === ".gitignore") this.#listing = true;
    // A new walk states every file again: nothing more to note (a checkout's thousands of events ask nothing then).
    else if (this.#listing) return;
    else if (this.#index.isFile(relative)) this.#files.add(relative);
    // A listed folder's own times change with its entries, which its own watcher reports; a rename is its going.
    else if (this.#index.isFolder(relative)) this.#listing ||= event === "rename";
    // A new entry the rule refuses (an ignored build output, say) lists nothing new.
    else if (!this.#index.isRefused(relative)) this.#listing = true;
  }
}

/**
 * Watches the folders of the walk `walk()` answers, asking it (as it is when a change comes) which paths
 * are listed files and folders, and `rule` which are refused; `undefined` when there is no walk or a
 * folder could not be watched. The changes made between the walk and now were seen by no watcher, so the
 * watch starts with the listing counted as changed.
 */
export function watchWalk(root: string, rule: ReadRule, walk: () => WalkState | undefined): RepositoryWatch | undefined {
  const folders = walk()?.folders;
  if (!folders) return undefined;
  const watch = new RepositoryWatch(root, {
    isFile: (relative) => walk()?.files.get(relative) !== undefined,
    isFolder: (relative) => walk()?.directories.has(relative) ?? false,
    isRefused: (relative) => rule.refusal(relative) !== undefined,
  });
  if (!watch.watch(folders)) return undefined;
  watch.markListing();
  return watch;
}

/**
 * A watch started on a later turn of the event loop, once asked ({@link soon}), so that a process that
 * ends right after its first answer never pays for one; and what it saw, handed over when asked.
 */
export class LaterWatch {
  readonly #enabled: boolean;
  readonly #start: () => RepositoryWatch | undefined;
  #watch: RepositoryWatch | undefined;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  /** @param start - makes the watch (`undefined`: none can be made, and none is tried again) */
  constructor(enabled: boolean, start: () => RepositoryWatch | undefined) {
    this.#enabled = enabled;
    this.#start = start;
  }

  /** Starts the watch on a later turn, unless it is off, closed, started or about to be. */
  soon(): void {
    if (!this.#enabled || this.#closed || this.#watch || this.#timer) return;
    this.#timer = setTimeout(() => (this.#watch = this.#closed ? undefined : this.#start()), 0);
    this.#timer.unref();
  }

  /**
   * What the watch saw change since the last call; `undefined` for nothing, or no watch. Changes the system
   * reported before the call are in it: the watchers' events are read in the event loop's poll phase, and the
   * second turn waited for comes after one (the first may come right after the poll the caller came from).
   */
  async changes(): Promise<WatchedChanges | undefined> {
    if (!this.#watch) return undefined;
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    return this.#watch?.take();
  }

  /** Watches these folders from now on (a new walk's), if watching. */
  follow(folders: Iterable<string>): void {
    if (this.#watch && !this.#watch.watch(folders)) this.#watch = undefined;
  }

  /** Stops watching, for good. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#watch?.close();
    this.#watch = undefined;
  }
}
