import fs from "node:fs";
import path from "node:path";
import { ReadRule } from "../access/read-rule.ts";
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
}

/** Everything {@link walkRepository} found. */
export interface RepositoryWalk {
  /** Files in path order (see {@link comparePaths}). */
  readonly files: WalkedFile[];
  /** Symlinks whose target is outside the root (or missing); listed by path so they can be refused by name. */
  readonly outsideLinks: string[];
}

/**
 * Lists the files of a repository that the read rule lets the model see: it
 * never enters `.git` or an ignored folder, and leaves out ignored and secret
 * files (see {@link ReadRule}). Symlinked files inside the root are listed;
 * symlinked directories are not followed; symlinks that leave the root are
 * reported in `outsideLinks`.
 *
 * @param root - an absolute real path (see `fs.realpath`)
 * @param rule - what may be read; default: the default rule over `root`
 * @param folders - folders a second thread walks meanwhile (see walk-split.ts and parallel-walk.ts; paths that are not plain are left out); none by default
 */
export function walkRepository(root: string, rule: ReadRule = new ReadRule(root), folders: readonly string[] = []): RepositoryWalk {
  const share = folders.filter(isPlainFolder);
  const files: WalkedFile[] = [];
  const outsideLinks: string[] = [];
  const helper = share.length > 0 ? startWalkHelper(root, rule.secretFiles, share) : undefined;
  walkDirectory(root, "", rule, files, outsideLinks, helper && new Set(share));
  if (helper) {
    // What the helper found; the folders it did not walk (or all, if it did not answer) are visited here as a whole walk would.
    const declined = helper.collect(files, outsideLinks) ?? share;
    for (const folder of declined) visitAgain(root, folder, rule, files, outsideLinks);
  }
  files.sort((a, b) => comparePaths(a.path, b.path));
  outsideLinks.sort();
  return { files, outsideLinks };
}

/**
 * Walks each of `folders` when a whole walk would enter it: it is a directory, no symlink
 * leads to it, and the rule allows it and every folder above it; answers the folders it
 * did not walk (the caller visits those as a whole walk would: see {@link walkRepository}).
 */
export function walkFolders(root: string, rule: ReadRule, folders: readonly string[], files: WalkedFile[], outsideLinks: string[]): string[] {
  const declined: string[] = [];
  for (const folder of folders) {
    const absolute = pathUnder(root, folder);
    if (realPath(absolute) === absolute && safeStat(absolute)?.isDirectory() && !rule.refusal(folder)) walkDirectory(root, folder, rule, files, outsideLinks, undefined);
    else declined.push(folder);
  }
  return declined;
}

// A folder another thread was to walk but did not: visited as its parent's entry, if a whole walk reaches the parent.
function visitAgain(root: string, folder: string, rule: ReadRule, files: WalkedFile[], outsideLinks: string[]): void {
  const slash = folder.lastIndexOf("/");
  const parent = slash === -1 ? root : pathUnder(root, folder.slice(0, slash));
  if (realPath(parent) !== parent || rule.refusal(folder.slice(0, Math.max(slash, 0)))) return;
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(pathUnder(root, folder));
  } catch {
    return;
  }
  visitEntry(root, folder, pathUnder(root, folder), stat, rule, files, outsideLinks, undefined);
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

function walkDirectory(root: string, relative: string, rule: ReadRule, files: WalkedFile[], outsideLinks: string[], skip: ReadonlySet<string> | undefined): void {
  const absolute = relative ? path.join(root, relative) : root;
  // Joined by hand: path.join's normalising is the walk's largest cost after the system calls.
  const prefix = absolute.endsWith(path.sep) ? absolute : absolute + path.sep;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(absolute, { withFileTypes: true });
  } catch {
    return;
  }
  // In any case: on a file system that ignores case (macOS, Windows), git reads `.Gitignore` too.
  rule.noteFolder(relative, entries.some((entry) => entry.name.length === 10 && entry.name.toLowerCase() === ".gitignore"));
  for (const entry of entries) {
    const childRelative = relative ? `${relative}/${entry.name}` : entry.name;
    if (!skip?.has(childRelative)) visitEntry(root, childRelative, prefix + entry.name, entry, rule, files, outsideLinks, skip);
  }
}

// One entry of a folder (a Dirent, or an lstat of it): a folder is walked, a file listed, a symlink followed to a file inside the root.
function visitEntry(root: string, relative: string, absolute: string, entry: EntryKind, rule: ReadRule, files: WalkedFile[], outsideLinks: string[], skip: ReadonlySet<string> | undefined): void {
  if (entry.isDirectory()) {
    if (!rule.entryRefusal(relative, true)) walkDirectory(root, relative, rule, files, outsideLinks, skip);
    return;
  }
  if (rule.entryRefusal(relative, false)) return;
  if (entry.isSymbolicLink()) {
    const target = realPath(absolute);
    if (target === undefined || !isInside(root, target)) {
      outsideLinks.push(relative);
      return;
    }
    const stat = safeStat(target);
    if (stat?.isFile()) files.push({ path: relative, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs });
    return;
  }
  if (!entry.isFile()) return;
  const stat = safeStat(absolute);
  if (stat) files.push({ path: relative, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs });
}

/** What an entry is, as a `Dirent` or an `lstat` tells. */
interface EntryKind {
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFile(): boolean;
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
