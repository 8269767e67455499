import fs from "node:fs";
import path from "node:path";
import { ReadRule } from "../access/read-rule.ts";
import { statFiles } from "./file-stats.ts";
import { startWalkHelper } from "./parallel-walk.ts";
import { isInside } from "./path-safety.ts";
import { pathUnder } from "./text-scan.ts";
import { isPlainFolder } from "./walk-split.ts";

/** The order a walk lists paths in: by UTF-16 code units, as `<` compares strings. */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A file found by {@link walkRepository}. */
export interface WalkedFile {
  /** Path relative to the root, with `/`. */
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** Changes with every write to the file, and cannot be set back (unlike mtime). */
  readonly ctimeMs: number;
  /** Which file it is: its device and inode number (a listed symlink's are those of the file it leads to). */
  readonly dev: number;
  readonly ino: number;
}

/** What a walk read to list its files: enough to tell later whether a listing still holds (see walk-listing.ts). */
export interface WalkTrace {
  /** Every folder the walk listed ("" is the root). */
  readonly folders: string[];
  /**
   * Each folder's size, mtime and ctime just before the walk read it, three numbers per folder in the order of
   * `folders`: a folder whose times differ after the walk changed while it was walked, whatever the clocks say (but for a change in the same tick of the file system's clock as the read).
   */
  readonly folderTimes: number[];
  /** Every symlink the rule let through: followed again whenever the listing is used. */
  readonly links: string[];
  /** False when a folder could not be listed or a file could not be `stat`ed: the walk is not one to trust again. */
  complete: boolean;
}

/** Everything {@link walkRepository} found. */
export interface RepositoryWalk {
  /** Files in path order (see {@link comparePaths}). */
  readonly files: WalkedFile[];
  /** Symlinks whose target is outside the root (or missing); listed by path so they can be refused by name. */
  readonly outsideLinks: string[];
  readonly trace: WalkTrace;
}

/**
 * Lists the files of a repository that the read rule lets the model see: it
 * never enters `.git` or an ignored folder, and leaves out ignored and secret
 * files (see {@link ReadRule}). Symlinked files inside the root are listed;
 * symlinked directories are not followed; symlinks that leave the root are
 * reported in `outsideLinks`.
 *
 * With `folders`, a worker thread walks those folders meanwhile (see walk-split.ts and
 * parallel-walk.ts), and this thread does not enter them. Which of them count is still
 * this walk's to say: only a folder it meets as a folder it would enter, under the name
 * it reads there, keeps what the worker found (or is walked here when the worker did not
 * walk it), so the list is the one a walk on one thread makes. (The worker reads the
 * `.gitignore` files of its folders afresh; this thread's rule keeps those it read before.)
 *
 * @param root - an absolute real path (see `fs.realpath`)
 * @param rule - what may be read; default: the default rule over `root`
 * @param folders - folders for a worker thread (paths that are not plain are left out, and any inside another); none by default
 * @param startHelper - starts the worker thread (tests give one that never answers)
 */
export function walkRepository(root: string, rule: ReadRule = new ReadRule(root), folders: readonly string[] = [], startHelper = startWalkHelper): RepositoryWalk {
  const share = helperShare(folders);
  const found = newPart();
  const helper = share.length > 0 ? startHelper(root, rule.options, share) : undefined;
  const met: string[] = [];
  const pending = new PendingFiles();
  try {
    walkDirectory(root, "", rule, found, pending, helper && { folders: new Set(share), met });
  } catch (error) {
    helper?.cancel();
    throw error;
  }
  if (helper) {
    const walked = helper.collect() ?? new Map<string, WalkedPart>();
    for (const folder of met) {
      const part = walked.get(folder);
      if (!part) {
        walkDirectory(root, folder, rule, found, pending, undefined);
        continue;
      }
      for (const file of part.files) found.files.push(file);
      for (const link of part.outsideLinks) found.outsideLinks.push(link);
      // One by one: a spread of 150,000 arguments overflows the stack.
      for (const partFolder of part.trace.folders) found.trace.folders.push(partFolder);
      for (const value of part.trace.folderTimes) found.trace.folderTimes.push(value);
      for (const link of part.trace.links) found.trace.links.push(link);
      found.trace.complete &&= part.trace.complete;
    }
  }
  pending.statInto(found);
  found.files.sort((a, b) => comparePaths(a.path, b.path));
  found.outsideLinks.sort();
  // In path order, whichever thread walked which folder.
  sortFolders(found.trace);
  found.trace.links.sort(comparePaths);
  return found;
}

/** What a walk of one folder found. */
export type WalkedPart = RepositoryWalk;

function newPart(): WalkedPart {
  return { files: [], outsideLinks: [], trace: { folders: [], folderTimes: [], links: [], complete: true } };
}

// The trace's folders in path order, each with its times.
function sortFolders(trace: WalkTrace): void {
  const { folders, folderTimes } = trace;
  const order = folders.map((_, index) => index).sort((a, b) => comparePaths(folders[a]!, folders[b]!));
  const sortedFolders = order.map((index) => folders[index]!);
  const sortedTimes: number[] = new Array(folderTimes.length);
  for (let at = 0; at < order.length; at++) for (let value = 0; value < 3; value++) sortedTimes[at * 3 + value] = folderTimes[order[at]! * 3 + value]!;
  for (let at = 0; at < sortedFolders.length; at++) folders[at] = sortedFolders[at]!;
  for (let at = 0; at < sortedTimes.length; at++) folderTimes[at] = sortedTimes[at]!;
}

/**
 * Walks each of `folders` that is a directory with no symlink on the way, allowed by the
 * rule with every folder above it, and answers what each folder it walked holds. Whether a
 * folder counts is for the walk of the whole repository to say (see {@link walkRepository}).
 */
export function walkFolders(root: string, rule: ReadRule, folders: readonly string[]): Map<string, WalkedPart> {
  const walked = new Map<string, WalkedPart>();
  for (const folder of folders) {
    const absolute = pathUnder(root, folder);
    if (realPath(absolute) !== absolute || !safeStat(absolute)?.isDirectory() || rule.refusal(folder)) continue;
    const part = newPart();
    const pending = new PendingFiles();
    walkDirectory(root, folder, rule, part, pending, undefined);
    pending.statInto(part);
    walked.set(folder, part);
  }
  return walked;
}

/** The folders a walk hands to a worker thread: the plain ones (see `isPlainFolder`), without duplicates or any inside another. */
export function helperShare(folders: readonly string[]): string[] {
  return disjointFolders(folders.filter(isPlainFolder));
}

// The folders without duplicates, and without any inside another (a folder sorts before the folders inside it).
function disjointFolders(folders: readonly string[]): string[] {
  const kept = new Set<string>();
  for (const folder of [...new Set(folders)].sort(comparePaths)) {
    let inside = false;
    for (let slash = folder.lastIndexOf("/"); slash > 0 && !inside; slash = folder.lastIndexOf("/", slash - 1)) inside = kept.has(folder.slice(0, slash));
    if (!inside) kept.add(folder);
  }
  return [...kept];
}

/** The folders that hold the files (listed in path order): each file's folder and those above it, each found once. */
export function foldersOf(files: readonly WalkedFile[]): Set<string> {
  const folders = new Set<string>();
  let previous = "";
  for (const file of files) {
    const slash = file.path.lastIndexOf("/");
    if (slash === -1) continue;
    const folder = file.path.slice(0, slash);
    if (folder === previous) continue;
    previous = folder;
    for (let end = folder.length; end > 0 && !folders.has(folder.slice(0, end)); end = folder.lastIndexOf("/", end - 1)) folders.add(folder.slice(0, end));
  }
  return folders;
}

// The regular files a walk found, to be listed once their `stat`s are in (all at once: see file-stats.ts).
class PendingFiles {
  readonly #relative: string[] = [];
  readonly #absolute: string[] = [];

  add(relative: string, absolute: string): void {
    this.#relative.push(relative);
    this.#absolute.push(absolute);
  }

  // Lists each file whose `stat` succeeded.
  statInto({ files, trace }: WalkedPart): void {
    const stats = statFiles(this.#absolute);
    for (let index = 0; index < stats.length; index++) {
      const stat = stats[index];
      if (stat) files.push({ path: this.#relative[index]!, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, dev: stat.dev, ino: stat.ino });
      else trace.complete = false;
    }
  }
}

// Folders a worker thread walks: met as folders this walk would enter, they are noted in `met`, not entered.
interface Shared {
  readonly folders: ReadonlySet<string>;
  readonly met: string[];
}

function walkDirectory(root: string, relative: string, rule: ReadRule, found: WalkedPart, pending: PendingFiles, shared: Shared | undefined): void {
  const absolute = relative ? path.join(root, relative) : root;
  // Joined by hand: path.join's normalising is the walk's largest cost after the system calls.
  const prefix = absolute.endsWith(path.sep) ? absolute : absolute + path.sep;
  // Before the folder is read: a change after that moves its times (see WalkTrace.folderTimes). Where they cannot be
  // had, the folder is still read, and the walk is not one to keep.
  const before = fs.lstatSync(absolute, { throwIfNoEntry: false });
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(absolute, { withFileTypes: true });
  } catch {
    found.trace.complete = false;
    return;
  }
  if (before) found.trace.folderTimes.push(before.size, before.mtimeMs, before.ctimeMs);
  else {
    found.trace.complete = false;
    found.trace.folderTimes.push(NaN, NaN, NaN);
  }
  found.trace.folders.push(relative);
  // In any case: on a file system that ignores case (macOS, Windows), git reads `.Gitignore` too.
  rule.noteFolder(relative, entries.some((entry) => entry.name.length === 10 && entry.name.toLowerCase() === ".gitignore"));
  for (const entry of entries) visitEntry(root, relative, prefix, entry, rule, found, pending, shared);
}

// One entry of the folder `parent` (whose absolute path ends in `prefix`): a folder is walked, a file
// listed (once its `stat` is in), a symlink followed to a file inside the root. The rule gets the same
// `parent` for every entry.
function visitEntry(root: string, parent: string, prefix: string, entry: fs.Dirent, rule: ReadRule, found: WalkedPart, pending: PendingFiles, shared: Shared | undefined): void {
  const relative = parent ? `${parent}/${entry.name}` : entry.name;
  const absolute = prefix + entry.name;
  if (entry.isDirectory()) {
    if (rule.entryRefusal(relative, true, parent)) return;
    if (shared?.folders.has(relative)) shared.met.push(relative);
    else walkDirectory(root, relative, rule, found, pending, shared);
    return;
  }
  if (rule.entryRefusal(relative, false, parent)) return;
  if (entry.isSymbolicLink()) {
    found.trace.links.push(relative);
    followLink(root, relative, absolute, found, rule);
    return;
  }
  if (entry.isFile()) pending.add(relative, absolute);
}

/**
 * A symlink the rule lets through, at `relative` (`absolute` on disk): listed when it leads to a
 * file inside the root that the rule lets through too (not one in `.git`, ignored or secret), named
 * in `outsideLinks` when it leads outside (or nowhere); a symlinked folder is not followed.
 */
export function followLink(root: string, relative: string, absolute: string, found: Pick<WalkedPart, "files" | "outsideLinks">, rule: Pick<ReadRule, "refusal">): void {
  const target = realPath(absolute);
  if (target === undefined || !isInside(root, target)) {
    found.outsideLinks.push(relative);
    return;
  }
  // What the link shows is the target: one the rule refuses is not listed (asked for by name, the rule refuses the link).
  if (rule.refusal(path.relative(root, target).split(path.sep).join("/"), { followLinks: false })) return;
  const stat = safeStat(target);
  if (stat?.isFile()) found.files.push({ path: relative, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, dev: stat.dev, ino: stat.ino });
}

function realPath(absolute: string): string | undefined {
  try {
    return fs.realpathSync(absolute);
  } catch {
    return undefined;
  }
}

function safeStat(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}
