// Which folders a second thread walks, from the file list of an earlier walk (the disk cache's).

/** The deepest folder level the split looks at. */
const MAX_DEPTH = 4;
/**
 * The worker's share of the files. Less than half: it starts 40-60 ms after the calling
 * thread and loads the read rule's modules, while that thread walks the rest (on a
 * 50,000-file tree, 0.4 left the calling thread waiting 45-65 ms for it, 0.3 not at all).
 */
export const WORKER_SHARE = 0.33;

/**
 * Folders (relative, `/`-separated) that hold about `share` of the files of an earlier
 * list (given in parts: a cache's records and filters), none inside another: at each level
 * the folders that fit what is left of the share, heaviest first, then into those too large,
 * down to {@link MAX_DEPTH} levels. Paths that are not plain (see {@link isPlainFolder}) are left out.
 * Folders the list no longer matches are harmless: a folder gone is walked as empty,
 * and one that appeared is walked by the calling thread.
 */
export function splitWalk(lists: readonly Iterable<string>[], share = WORKER_SHARE): string[] {
  const weights = new Map<string, number>();
  const children = new Map<string, string[]>();
  let count = 0;
  // Files come in path order, so most share the folder of the one before: the folders above a
  // file are found when its folder changes, and its count is added to them then.
  let key: string | undefined;
  let chain: string[] = [];
  let pending = 0;
  const flush = () => {
    for (const folder of chain) weights.set(folder, weights.get(folder)! + pending);
    pending = 0;
  };
  for (const list of lists) {
    for (const file of list) {
      if (!isPlainFolder(file)) continue;
      count++;
      let end = -1;
      for (let slash = file.indexOf("/"), depth = 0; slash !== -1 && depth < MAX_DEPTH; slash = file.indexOf("/", slash + 1), depth++) end = slash;
      const folder = end === -1 ? "" : file.slice(0, end);
      if (folder !== key) {
        flush();
        key = folder;
        chain = foldersDown(folder, weights, children);
      }
      pending++;
    }
  }
  flush();
  const chosen: string[] = [];
  let left = Math.floor(count * share);
  // At each level: the children that fit what is left, heaviest first; then into those too large.
  const visit = (folder: string) => {
    const sorted = [...(children.get(folder) ?? [])].sort((a, b) => weights.get(b)! - weights.get(a)!);
    const tooLarge: string[] = [];
    for (const child of sorted) {
      const weight = weights.get(child)!;
      if (weight <= left) {
        chosen.push(child);
        left -= weight;
      } else {
        tooLarge.push(child);
      }
    }
    for (const child of tooLarge) if (left > 0) visit(child);
  };
  visit("");
  return chosen;
}

// The folders from the top down to `folder` ("" has none), each registered (weight 0, and among its parent's children) when new.
function foldersDown(folder: string, weights: Map<string, number>, children: Map<string, string[]>): string[] {
  if (folder === "") return [];
  const chain: string[] = [];
  let parent = "";
  for (let slash = folder.indexOf("/"); ; slash = folder.indexOf("/", slash + 1)) {
    const current = slash === -1 ? folder : folder.slice(0, slash);
    if (!weights.has(current)) {
      weights.set(current, 0);
      const siblings = children.get(parent);
      if (siblings) siblings.push(current);
      else children.set(parent, [current]);
    }
    chain.push(current);
    parent = current;
    if (slash === -1) return chain;
  }
}

// An empty, `.` or `..` segment, a leading or trailing `/`, a backslash or a NUL.
const NOT_PLAIN = /(?:^|\/)\.{0,2}(?:\/|$)|\\|\0/;

/** True for a plain relative path below the root (`a/b`): what a share of a walk may name. */
export function isPlainFolder(relative: string): boolean {
  return !NOT_PLAIN.test(relative);
}
