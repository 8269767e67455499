// A walk's listing kept beside the disk cache (`<hash>.list`), so that a new process can trust it
// instead of listing every folder again: it `stat`s the folders, their `.gitignore` files and the
// files instead of reading every folder and testing every entry against the read rule (on the
// standard library, 5 ms against 16-21 ms). The idea is git's untracked cache: a folder's entries
// change only with its mtime and ctime.
import fs from "node:fs";
import path from "node:path";
import { statFiles, type FileStat } from "./file-stats.ts";
import { comparePaths, followLink, type RepositoryWalk, type WalkedFile } from "./repo-walk.ts";
import { pathUnder } from "./text-scan.ts";

/**
 * How much older than the walk a folder's (or an ignore file's) mtime and ctime must be for the walk
 * to be kept: a change made later in the same tick of the file system's clock (a few milliseconds on
 * Linux, 1-2 s on FAT or HFS+) would leave them as they were. A folder changed this recently is listed
 * again by the next walk, which then keeps its listing.
 */
export const LISTING_SETTLED_MS = 2_000;

const LISTING_VERSION = 1;
// A folder's ignore file, and the root's own exclusions (see ReadRule).
const GITIGNORE = ".gitignore";
const EXCLUDE = ".git/info/exclude";
// In `watched`: size, mtime, ctime per path; a missing path has size -1.
const WATCH_STRIDE = 3;

/** A walk as kept: what it listed, and the `stat`s of everything whose change would change the listing. */
export interface WalkListing {
  /** The read rule's secret-file patterns (a listing made under others is not used). */
  readonly secretFiles: readonly string[];
  /** Every folder the walk listed ("" is the root). */
  readonly folders: readonly string[];
  /** Size, mtime and ctime of each path of {@link watchedPaths} (size -1: missing). */
  readonly watched: readonly number[];
  /** The regular files listed, in path order (each `stat`ed again when the listing is used). */
  readonly files: readonly string[];
  /** The symlinks the rule let through (each followed again when the listing is used). */
  readonly links: readonly string[];
}

/**
 * The listing of a walk that started at `startedAt` (ms since the epoch), or `undefined` when it
 * is not one to keep: a folder could not be listed or a file `stat`ed, or a folder or ignore file
 * changed less than `settledMs` before the walk (or since).
 */
export function listingOf(root: string, walk: RepositoryWalk, secretFiles: readonly string[], startedAt: number, settledMs = LISTING_SETTLED_MS): WalkListing | undefined {
  const { trace } = walk;
  if (!trace.complete) return undefined;
  const paths = watchedPaths(trace.folders);
  const stats = watchedStats(root, trace.folders, paths);
  const watched: number[] = [];
  for (let index = 0; index < paths.length; index++) {
    const stat = stats[index];
    if (!stat) {
      // A folder gone since the walk listed it: the walk is already out of date.
      if (index < trace.folders.length) return undefined;
      watched.push(-1, 0, 0);
      continue;
    }
    if (stat.mtimeMs >= startedAt - settledMs || stat.ctimeMs >= startedAt - settledMs) return undefined;
    watched.push(stat.size, stat.mtimeMs, stat.ctimeMs);
  }
  const links = new Set(trace.links);
  const files = walk.files.filter((file) => !links.has(file.path)).map((file) => file.path);
  return { secretFiles: [...secretFiles], folders: [...trace.folders], watched, files, links: [...trace.links] };
}

/**
 * The walk a listing stands for, as a walk made now would find it, or `undefined` when the listing
 * cannot be trusted: made under other secret-file patterns, or a folder or ignore file changed
 * (appeared, went, or has another size, mtime or ctime). The files are `stat`ed (one missing now is
 * left out, as a walk would) and the symlinks followed again.
 */
export function replayListing(root: string, listing: WalkListing, secretFiles: readonly string[]): RepositoryWalk | undefined {
  if (listing.secretFiles.length !== secretFiles.length || listing.secretFiles.some((pattern, index) => pattern !== secretFiles[index])) return undefined;
  const watchedCount = listing.watched.length / WATCH_STRIDE;
  const watchedStatsNow = watchedStats(root, listing.folders, watchedPaths(listing.folders));
  const fileStats = statFiles(listing.files.map((relative) => pathUnder(root, relative)));
  for (let index = 0; index < watchedCount; index++) {
    const stat = watchedStatsNow[index];
    const at = index * WATCH_STRIDE;
    if (!stat) {
      if (listing.watched[at] !== -1) return undefined;
      continue;
    }
    if (stat.size !== listing.watched[at] || stat.mtimeMs !== listing.watched[at + 1] || stat.ctimeMs !== listing.watched[at + 2]) return undefined;
  }
  const files: WalkedFile[] = [];
  const outsideLinks: string[] = [];
  for (let index = 0; index < listing.files.length; index++) {
    const stat = fileStats[index];
    if (stat) files.push({ path: listing.files[index]!, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs });
  }
  for (const link of listing.links) followLink(root, link, pathUnder(root, link), { files, outsideLinks });
  if (listing.links.length > 0) files.sort((a, b) => comparePaths(a.path, b.path));
  outsideLinks.sort();
  return { files, outsideLinks, trace: { folders: [...listing.folders], links: [...listing.links], complete: true } };
}

// The paths whose `stat`s a listing keeps: its folders, each folder's `.gitignore`, and the root's exclusions.
function watchedPaths(folders: readonly string[]): string[] {
  return [...folders, ...folders.map((folder) => (folder ? `${folder}/${GITIGNORE}` : GITIGNORE)), EXCLUDE];
}

// The `stat`s of the watched paths (the first `folders.length` are the folders). A folder is asked with `lstat`
// and counts only as a directory, as the walk enters only directories (never a symlink to one); the ignore
// files are read through symlinks, and so `stat`ed.
function watchedStats(root: string, folders: readonly string[], paths: readonly string[]): (FileStat | undefined)[] {
  const stats: (FileStat | undefined)[] = folders.map((folder) => folderStat(pathUnder(root, folder)));
  return stats.concat(statFiles(paths.slice(folders.length).map((relative) => pathUnder(root, relative))));
}

function folderStat(absolute: string): FileStat | undefined {
  try {
    const stat = fs.lstatSync(absolute, { throwIfNoEntry: false });
    return stat?.isDirectory() ? { size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs } : undefined;
  } catch {
    return undefined;
  }
}

/** The listing file that goes with a cache file. */
export function listingFileOf(cacheFile: string): string {
  return cacheFile.replace(/\.json$/, "") + ".list";
}

/** The listing in `file`; `undefined` when there is none, or it is malformed or of another version. */
export function readListing(file: string): WalkListing | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<Record<keyof WalkListing | "version", unknown>>;
    if (parsed?.version !== LISTING_VERSION) return undefined;
    const { secretFiles, folders, watched, files, links } = parsed;
    if (!isStrings(secretFiles) || !isStrings(folders) || !isStrings(files) || !isStrings(links)) return undefined;
    if (!Array.isArray(watched) || watched.length !== (folders.length * 2 + 1) * WATCH_STRIDE || !watched.every((value) => typeof value === "number")) return undefined;
    // Paths inside the root only: no absolute path, no `..` (a listing is only ever a walk's).
    if (!folders.every(isRelativePath) || ![...files, ...links].every((relative) => relative !== "" && isRelativePath(relative))) return undefined;
    // As a walk makes it: from the root down, each folder, file and symlink in a folder listed.
    const listed = new Set(folders);
    if (!listed.has("") || ![...folders.filter((folder) => folder !== ""), ...files, ...links].every((relative) => listed.has(parentOf(relative)))) return undefined;
    return { secretFiles, folders, watched: watched as number[], files, links };
  } catch {
    return undefined;
  }
}

/** Writes `listing` to `file` (making its folder): to a temporary name, then renamed. */
export async function writeListing(file: string, listing: WalkListing): Promise<void> {
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    await fs.promises.writeFile(temporary, JSON.stringify({ version: LISTING_VERSION, ...listing }));
    await fs.promises.rename(temporary, file);
  } finally {
    await fs.promises.rm(temporary, { force: true });
  }
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function parentOf(relative: string): string {
  const slash = relative.lastIndexOf("/");
  return slash === -1 ? "" : relative.slice(0, slash);
}

function isRelativePath(relative: string): boolean {
  return !relative.startsWith("/") && !relative.split("/").some((segment) => segment === ".." || segment === ".");
}
