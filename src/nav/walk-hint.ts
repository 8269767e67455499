// How many files the last walk listed, and which folders a second thread walks, kept beside the
// disk cache (`<hash>.walk`): a new process's first search knows from the count whether the cache's
// list is complete, and starts that thread before it reads the cache (see repo-index.ts).
import fs from "node:fs";
import { isPlainFolder, splitWalk } from "./walk-split.ts";

/**
 * The second thread's share of the files when it starts before the cache is read: it then
 * walks while the calling thread reads the cache (50-60 ms for 50,000 files), about as long
 * as the thread takes to start. On a 50,000-file tree, 0.45 left neither thread waiting long.
 */
export const AHEAD_SHARE = 0.45;

const HINT_VERSION = 1;

/** The hint file that goes with a cache file. */
export function walkHintFileOf(cacheFile: string): string {
  return cacheFile.replace(/\.json$/, "") + ".walk";
}

/**
 * The folders of a parsed hint (see {@link parseWalkHint}), when it was written for at least
 * `minFiles` files. A hint is only ever a share of the work: which folders count is the walk's to say.
 */
export function hintFolders(hint: WalkHint | undefined, minFiles: number): string[] | undefined {
  return hint && hint.files >= minFiles && hint.folders.length > 0 ? hint.folders : undefined;
}

/**
 * A hint file as written: `files`, how many files the walk that wrote it listed (a disk cache
 * whose file list has that many files listed every file then, and a search may start on it
 * before the walk, see `searchWhileWalking`), and the folders of a second thread's share (none
 * for a walk of fewer files than a second thread pays for).
 */
export interface WalkHint {
  readonly files: number;
  readonly folders: string[];
}

/** The hint in `file`; `undefined` when there is none, it is malformed, or it names a folder that is not a plain relative path. */
export function parseWalkHint(file: string): WalkHint | undefined {
  try {
    const hint = JSON.parse(fs.readFileSync(file, "utf8")) as { version?: unknown; files?: unknown; folders?: unknown };
    if (hint?.version !== HINT_VERSION || !Number.isSafeInteger(hint.files) || !Array.isArray(hint.folders)) return undefined;
    const folders = hint.folders as unknown[];
    if (!folders.every((folder) => typeof folder === "string" && isPlainFolder(folder))) return undefined;
    return { files: hint.files as number, folders: folders as string[] };
  } catch {
    return undefined;
  }
}

/**
 * Writes the hint for a walk that listed `count` files at `paths` (in path order): with no
 * folders when they are fewer than `minFiles` (one thread walks that many faster than a second
 * starts), since the count alone lets a search start on the cache's list. Written to a
 * temporary name, then renamed.
 */
export async function writeWalkHint(file: string, paths: Iterable<string>, count: number, minFiles: number): Promise<void> {
  const folders = count < minFiles ? [] : splitWalk([paths], AHEAD_SHARE);
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await fs.promises.writeFile(temporary, JSON.stringify({ version: HINT_VERSION, files: count, folders }));
    await fs.promises.rename(temporary, file);
  } finally {
    await fs.promises.rm(temporary, { force: true });
  }
}
