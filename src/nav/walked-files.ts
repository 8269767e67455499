import type { WalkedFile } from "./repo-walk.ts";

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

  /** How many files the walk listed. */
  get size(): number {
    return this.#list.length;
  }

  /** The files in path order: a new array each time (a change to a file does not change one handed out before). */
  list(): WalkedFile[] {
    return this.#list.slice();
  }

  /** The file at `path` (relative, with `/`), if the walk listed it. */
  get(path: string): WalkedFile | undefined {
    const index = this.#indexOf(path);
    return index === -1 ? undefined : this.#list[index];
  }

  /** True when the walk listed a file at `path`. */
  has(path: string): boolean {
    return this.#indexOf(path) !== -1;
  }

  /** Takes a listed file's new version (its path must be listed). */
  set(file: WalkedFile): void {
    const index = this.#indexOf(file.path);
    if (index === -1) throw new Error(`not a walked file: ${file.path}`);
    this.#list[index] = file;
  }

  /** Drops a listed file (one that has become what the walk would not list); false when `path` was not listed. */
  delete(path: string): boolean {
    const index = this.#indexOf(path);
    if (index !== -1) this.#list.splice(index, 1);
    return index !== -1;
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
