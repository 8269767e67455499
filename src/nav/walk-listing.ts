// A walk's listing kept beside the disk cache (`<hash>.list`), so that a new process can trust it
// instead of listing every folder again: it `lstat`s the folders, their `.gitignore` files and the
// files instead of reading every folder and testing every entry against the read rule (on the
// standard library, 5 ms against 16-21 ms). The idea is git's untracked cache: a folder's entries
// change only with its mtime and ctime.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { READ_RULE_VERSION, type ReadRule } from "../access/read-rule.ts";
import { lstatEntries, type EntryKind, type EntryStat } from "./file-stats.ts";
import { comparePaths, followLink, type RepositoryWalk, type WalkedFile } from "./repo-walk.ts";
import { pathUnder } from "./text-scan.ts";

/**
 * How much older than the walk a folder's (or an ignore file's) mtime and ctime must be for the walk
 * to be kept: a change made later in the same tick of the file system's clock (a few milliseconds on
 * Linux, 1-2 s on FAT or HFS+) would leave them as they were. A folder changed this recently is listed
 * again by the next walk, which then keeps its listing.
 */
export const LISTING_SETTLED_MS = 2_000;

const LISTING_VERSION = 3;
// Between the paths of a list in the file: one string parses many times faster than an array of 50,000.
const SEPARATOR = "\0";
// A folder's ignore file.
const GITIGNORE = ".gitignore";
// The root's own exclusions (see ReadRule), and the folder that holds them (the file's going shows in its times).
const GIT_PATHS = [".git/info", ".git/info/exclude"];
// Git changes it at every command that writes the index, so it is not watched; but `.git/info` going with
// the file between the walk and the listing shows only there, so the walk is kept only if it settled too.
const GIT_FOLDER = ".git";
// In `watched`, per path: its kind (below), size, mtime and ctime.
const WATCH_STRIDE = 4;
const KIND_CODES: Readonly<Record<EntryKind, number>> = { file: 1, directory: 2, symlink: 3, other: 4 };
// What each watched path may be for its walk to be kept (0: missing). A symlinked `.gitignore` or `.git`
// could change with its target, which no time here shows.
const FOLDER = [KIND_CODES.directory];
const IGNORE_FILE = [0, KIND_CODES.file];
const GIT = [[0, KIND_CODES.directory], IGNORE_FILE];

/** A walk as kept: what it listed, and the `lstat`s of everything whose change would change the listing. */
export interface WalkListing {
  /** The read rule's code: its version and those of the `ignore` and `picomatch` packages (a listing made under others is not used). */
  readonly rules: string;
  /** The read rule's secret-file patterns (a listing made under others is not used). */
  readonly secretFiles: readonly string[];
  /** Every folder the walk listed ("" is the root), in path order. */
  readonly folders: readonly string[];
  /** Kind, size, mtime and ctime of each path of {@link watchedPaths} (kind 0: missing). */
  readonly watched: readonly number[];
  /** The regular files listed, in path order (each `lstat`ed again when the listing is used). */
  readonly files: readonly string[];
  /** The symlinks the rule let through, in path order (each followed again when the listing is used). */
  readonly links: readonly string[];
}

/**
 * The listing of a walk, or `undefined` when it is not one to keep: a folder could not be listed or a
 * file `stat`ed, a `.gitignore`, `.git` or its exclusions is a symlink, or a folder or ignore file changed less than
 * `settledMs` before `startedAt` (or since), `.git` too. `startedAt` is when the walk began reading (ms since the
 * epoch): the earliest of the walk's start, a thread started ahead of it, and the read rule's first
 * read of ignore files (see `ReadRule.firstReadAt`), whose rules it keeps.
 */
export function listingOf(root: string, walk: RepositoryWalk, rule: Pick<ReadRule, "secretFiles" | "ignoresOutside">, startedAt: number, settledMs = LISTING_SETTLED_MS): WalkListing | undefined {
  const { trace } = walk;
  if (!trace.complete) return undefined;
  const paths = watchedPaths(trace.folders);
  const stats = lstatEntries([...paths, GIT_FOLDER].map((relative) => pathUnder(root, relative)));
  // Changed less than `settledMs` before the walk began reading (or since).
  const unsettled = (stat: EntryStat) => stat.mtimeMs >= startedAt - settledMs || stat.ctimeMs >= startedAt - settledMs;
  const git = stats.pop();
  if (git && (git.kind === "symlink" || unsettled(git))) return undefined;
  const watched: number[] = [];
  for (let index = 0; index < paths.length; index++) {
    const stat = stats[index];
    // A folder changed since the walk read it (its times before the read are in the trace).
    if (index < trace.folders.length && stat && !sameTimes(stat, trace.folderTimes, index * 3)) return undefined;
    const kind = stat ? KIND_CODES[stat.kind] : 0;
    if (!allowedKinds(index, trace.folders.length).includes(kind)) return undefined;
    if (stat && unsettled(stat)) return undefined;
    watched.push(kind, stat?.size ?? 0, stat?.mtimeMs ?? 0, stat?.ctimeMs ?? 0);
  }
  const links = new Set(trace.links);
  const files = walk.files.filter((file) => !links.has(file.path)).map((file) => file.path);
  return { rules: rulesCode(rule), secretFiles: [...rule.secretFiles], folders: [...trace.folders], watched, files, links: [...trace.links] };
}

let rules: string | undefined;

// The read rule's version and the versions of the packages it matches with (.gitignore rules, secret-file globs), and
// a digest of the ignore files outside the root that apply to it, as the rule read them (git's global excludes file, a
// worktree's exclusions, the ignore files above a folder of a repository), which the listing does not watch.
function rulesCode(rule: Pick<ReadRule, "ignoresOutside">): string {
  return `${packagesCode()}#${crypto.hash("sha256", rule.ignoresOutside, "hex").slice(0, 16)}`;
}

function packagesCode(): string {
  rules ??= `${READ_RULE_VERSION}/ignore@${packageVersion("ignore")}/picomatch@${packageVersion("picomatch")}`;
  return rules;
}

// The version in a package's manifest: the nearest package.json above its entry point that names the package, read
// directly (a first walk in a new process pays for it: `require` of each manifest cost 0.7 ms there, this 0.3 ms).
// "?" for a bundle without the package's manifest: the rule's own version still tells.
function packageVersion(name: string): string {
  try {
    let folder = new URL(".", import.meta.resolve(name));
    for (let up = 0; up < 4; up++, folder = new URL("..", folder)) {
      let manifest: { name?: unknown; version?: unknown } | undefined;
      try {
        manifest = JSON.parse(fs.readFileSync(new URL("package.json", folder), "utf8")) as { name?: unknown; version?: unknown };
      } catch {
        continue;
      }
      if (manifest.name === name) return String(manifest.version);
    }
  } catch {
    // not resolvable from here
  }
  return "?";
}

/**
 * The walk a listing stands for, as a walk made now would find it, or `undefined` when the listing
 * cannot be trusted: made under other secret-file patterns, a folder or ignore file changed (appeared,
 * went, or has another kind, size, mtime or ctime), or it lists what no walk lists (a folder that is not a
 * directory, a file that is not a regular file). The files are `lstat`ed (one missing now is left out, as
 * a walk would) and the symlinks followed again.
 */
export function replayListing(root: string, listing: WalkListing, rule: Pick<ReadRule, "secretFiles" | "refusal" | "ignoresOutside">, known?: KnownStats): Pick<RepositoryWalk, "files" | "outsideLinks"> | undefined {
  const { secretFiles } = rule;
  if (listing.rules !== rulesCode(rule)) return undefined;
  if (listing.secretFiles.length !== secretFiles.length || listing.secretFiles.some((pattern, index) => pattern !== secretFiles[index])) return undefined;
  const watchedNow = lstatEntries(watchedPaths(listing.folders).map((relative) => pathUnder(root, relative)));
  for (let index = 0; index < watchedNow.length; index++) if (!sameEntry(watchedNow[index], listing.watched, index * WATCH_STRIDE)) return undefined;
  const fileStats = known ? statsWith(root, listing.files, known) : lstatEntries(listing.files.map((relative) => pathUnder(root, relative)));
  const files: WalkedFile[] = [];
  const outsideLinks: string[] = [];
  for (let index = 0; index < listing.files.length; index++) {
    const stat = fileStats[index];
    if (!stat) continue;
    // Replacing a file by anything else changes its folder: a listing that says otherwise was not made by a walk.
    if (stat.kind !== "file") return undefined;
    files.push({ path: listing.files[index]!, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, dev: stat.dev, ino: stat.ino });
  }
  for (const link of listing.links) followLink(root, link, pathUnder(root, link), { files, outsideLinks }, rule);
  if (listing.links.length > 0) files.sort((a, b) => comparePaths(a.path, b.path));
  outsideLinks.sort();
  return { files, outsideLinks };
}

/**
 * The stats of files a search took as it ran (a first search's scan states each file of the list it scans, see
 * `walksAfterScan`): the files in path order, and each one's stat as the search found it (none: not stated).
 */
export interface KnownStats {
  readonly files: readonly { readonly path: string }[];
  readonly stats: readonly (EntryStat | undefined)[];
}

// The stat of each path (in path order): the known one, else its `lstat` now.
function statsWith(root: string, paths: readonly string[], known: KnownStats): (EntryStat | undefined)[] {
  const stats: (EntryStat | undefined)[] = new Array(paths.length);
  const missing: number[] = [];
  let at = 0;
  for (let index = 0; index < paths.length; index++) {
    const path = paths[index]!;
    while (at < known.files.length && known.files[at]!.path < path) at++;
    const stat = at < known.files.length && known.files[at]!.path === path ? known.stats[at] : undefined;
    if (stat) stats[index] = stat;
    else missing.push(index);
  }
  if (missing.length > 0) {
    const now = lstatEntries(missing.map((index) => pathUnder(root, paths[index]!)));
    missing.forEach((index, at) => (stats[index] = now[at]));
  }
  return stats;
}

// The paths whose `lstat`s a listing keeps: its folders, each folder's `.gitignore`, and the root's exclusions with their folder.
function watchedPaths(folders: readonly string[]): string[] {
  return [...folders, ...folders.map((folder) => (folder ? `${folder}/${GITIGNORE}` : GITIGNORE)), ...GIT_PATHS];
}

// The kinds the watched path at `index` may have (see watchedPaths).
function allowedKinds(index: number, folders: number): readonly number[] {
  return index < folders ? FOLDER : index < 2 * folders ? IGNORE_FILE : GIT[index - 2 * folders]!;
}

function sameTimes(stat: EntryStat, times: readonly number[], at: number): boolean {
  return stat.size === times[at] && stat.mtimeMs === times[at + 1] && stat.ctimeMs === times[at + 2];
}

function sameEntry(stat: EntryStat | undefined, watched: readonly number[], at: number): boolean {
  if (!stat) return watched[at] === 0;
  return KIND_CODES[stat.kind] === watched[at] && stat.size === watched[at + 1] && stat.mtimeMs === watched[at + 2] && stat.ctimeMs === watched[at + 3];
}

/** The listing file that goes with a cache file. */
export function listingFileOf(cacheFile: string): string {
  return cacheFile.replace(/\.json$/, "") + ".list";
}

/** The listing in `file`; `undefined` when there is none, or it is malformed, of another version, or not shaped as a walk makes one. */
export function readListing(file: string): WalkListing | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<Record<keyof WalkListing | "version", unknown>>;
    if (parsed?.version !== LISTING_VERSION) return undefined;
    const { rules: rulesOfFile, secretFiles, watched } = parsed;
    if (typeof rulesOfFile !== "string" || !isStrings(secretFiles) || typeof parsed.folders !== "string" || typeof parsed.files !== "string" || typeof parsed.links !== "string") return undefined;
    // The folders always hold the root (""): a repository whose only folder it is keeps them as "".
    const folders = parsed.folders.split(SEPARATOR);
    const [files, links] = [parsed.files, parsed.links].map((joined) => (joined === "" ? [] : joined.split(SEPARATOR))) as [string[], string[]];
    if (!Array.isArray(watched) || watched.length !== (folders.length * 2 + GIT_PATHS.length) * WATCH_STRIDE || !watched.every((value) => typeof value === "number")) return undefined;
    // Folders exist (kind "directory"); the other paths may be missing.
    for (let index = 0; index < watched.length / WATCH_STRIDE; index++) if (!allowedKinds(index, folders.length).includes(watched[index * WATCH_STRIDE] as number)) return undefined;
    // Tested on the joined paths, one scan for all (the root, "", is the folders' first and allowed).
    if ((folders.length > 1 && namesUnwalked(parsed.folders.slice(1))) || (files.length > 0 && namesUnwalked(parsed.files)) || (links.length > 0 && namesUnwalked(parsed.links))) return undefined;
    return shapedAsAWalk(folders, files, links) ? { rules: rulesOfFile, secretFiles, folders, watched: watched as number[], files, links } : undefined;
  } catch {
    return undefined;
  }
}

// As a walk lists them: paths below the root in path order, each once, each in a folder listed, from the
// root down (a forged listing could name others: see ARCHITECTURE; the caller tests the paths themselves
// with `namesUnwalked`).
function shapedAsAWalk(folders: readonly string[], files: readonly string[], links: readonly string[]): boolean {
  if (folders[0] !== "") return false;
  const listed = new Set(folders);
  const fine = (paths: readonly string[], from: number) => {
    // Paths in order come folder by folder: a parent found listed is not looked up again for the paths after it.
    let known: string | undefined;
    for (let index = from; index < paths.length; index++) {
      const relative = paths[index]!;
      const slash = relative.lastIndexOf("/");
      const inKnown = known !== undefined && slash === known.length && relative.startsWith(known);
      if (!inKnown) {
        const parent = slash === -1 ? "" : relative.slice(0, slash);
        if (!listed.has(parent)) return false;
        known = parent;
      }
      // Path order is `<` (comparePaths), written out: 50,000 calls cost 4 ms.
      if (index > from && !(paths[index - 1]! < relative)) return false;
    }
    return true;
  };
  if (!fine(folders, 1) || !fine(files, 0) || !fine(links, 0)) return false;
  // A symlink is neither a file nor a folder (the files are in order: found by a binary search, no set of 50,000 made).
  return links.every((link) => !listed.has(link) && !inOrder(files, link));
}

// True when the paths, in order, hold `path`.
function inOrder(paths: readonly string[], path: string): boolean {
  let low = 0;
  let high = paths.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = paths[middle]!;
    if (at === path) return true;
    if (at < path) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

// A segment `.` or `..` of paths joined by NUL (the listing's form: NUL ends a segment too), found from its dot
// (a pattern that starts with the dot is found much faster than one that starts with its boundary); on Windows
// also a backslash or a drive. `.git`, under every name a file system reads as it, is GIT_ALIAS's.
const DOT_SEGMENT = process.platform === "win32" ? /(?<=^|[/\0])\.\.?(?=[/\0]|$)|[\\:]/ : /(?<=^|[/\0])\.\.?(?=[/\0]|$)/;

// True when paths joined by NUL name one that no walk lists: one with an empty, `.` or `..` segment, one that
// starts at the root of the file system, anything in `.git` in any case (a file system may ignore case,
// whatever the platform; a folder `.GIT` only costs its repository the listing) or under another name a
// file system reads as `.git` (see GIT_ALIAS).
function namesUnwalked(joined: string): boolean {
  return joined === "" || DOT_SEGMENT.test(joined) || EMPTY_SEGMENT.test(joined) || GIT_ALIAS.test(joined);
}

// What some file systems read as `.git` (see `namesGit` in src/access/git-names.ts): a segment `.git` or `git~1` (its 8.3
// short name on Windows) followed by dots and spaces or an NTFS stream, or any character HFS+ ignores in names
// (so `.g\u200Cit` is `.git` there). A repository that holds such a name on another file system only walks its folders anew.
const GIT_ALIAS = /(?<=^|[/\0])(?:\.git|git~1)[. ]*(?::[^/\0]*)?(?=[/\0]|$)|[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/i;

// An empty segment of paths joined by NUL: at the start, between two separators, or at the end.
const EMPTY_SEGMENT = /^[/\0]|[/\0][/\0]|[/\0]$/;

/** Writes `listing` to `file` (making its folder): to a temporary name, then renamed. */
export async function writeListing(file: string, listing: WalkListing): Promise<void> {
  const temporary = `${file}.${process.pid}.${crypto.randomUUID()}.tmp`;
  try {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const { rules: rulesOfListing, secretFiles, folders, watched, files, links } = listing;
    const joined = { folders: folders.join(SEPARATOR), files: files.join(SEPARATOR), links: links.join(SEPARATOR) };
    await fs.promises.writeFile(temporary, JSON.stringify({ version: LISTING_VERSION, rules: rulesOfListing, secretFiles, watched, ...joined }));
    await fs.promises.rename(temporary, file);
  } finally {
    await fs.promises.rm(temporary, { force: true });
  }
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

