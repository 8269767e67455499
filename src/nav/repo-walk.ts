import fs from "node:fs";
import path from "node:path";
import { ReadRule } from "../access/read-rule.ts";
import { isInside } from "./path-safety.ts";

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
 */
export function walkRepository(root: string, rule: ReadRule = new ReadRule(root)): RepositoryWalk {
  const files: WalkedFile[] = [];
  const outsideLinks: string[] = [];
  walkDirectory(root, "", rule, files, outsideLinks);
  files.sort((a, b) => comparePaths(a.path, b.path));
  outsideLinks.sort();
  return { files, outsideLinks };
}

function walkDirectory(root: string, relative: string, rule: ReadRule, files: WalkedFile[], outsideLinks: string[]): void {
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
    const childAbsolute = prefix + entry.name;
    if (entry.isDirectory()) {
      if (!rule.entryRefusal(childRelative, true)) walkDirectory(root, childRelative, rule, files, outsideLinks);
      continue;
    }
    if (rule.entryRefusal(childRelative, false)) continue;
    if (entry.isSymbolicLink()) {
      let target: string;
      try {
        target = fs.realpathSync(childAbsolute);
      } catch {
        outsideLinks.push(childRelative);
        continue;
      }
      if (!isInside(root, target)) {
        outsideLinks.push(childRelative);
        continue;
      }
      const stat = safeStat(target);
      if (stat?.isFile()) files.push({ path: childRelative, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs });
      continue;
    }
    if (!entry.isFile()) continue;
    const stat = safeStat(childAbsolute);
    if (stat) files.push({ path: childRelative, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs });
  }
}

function safeStat(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}
