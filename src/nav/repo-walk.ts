import fs from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";
import { isInside } from "./path-safety.ts";

/** A file found by {@link walkRepository}. */
export interface WalkedFile {
  /** Path relative to the root, with `/`. */
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
}

/** Everything {@link walkRepository} found. */
export interface RepositoryWalk {
  /** Files in path order (byte order of the relative paths). */
  readonly files: WalkedFile[];
  /** Symlinks whose target is outside the root (or missing); listed by path so they can be refused by name. */
  readonly outsideLinks: string[];
}

interface Matcher {
  readonly base: string;
  readonly rules: Ignore;
}

/**
 * Lists the files of a repository, honouring every `.gitignore` on the way
 * (nested ones apply below their directory) and `.git/info/exclude`, and
 * never entering `.git`. Symlinked files inside the root are listed;
 * symlinked directories are not followed; symlinks that leave the root are
 * reported in `outsideLinks`.
 *
 * @param root - an absolute real path (see `fs.realpath`)
 */
export function walkRepository(root: string): RepositoryWalk {
  const files: WalkedFile[] = [];
  const outsideLinks: string[] = [];
  const rootRules = ignore();
  const exclude = readText(path.join(root, ".git", "info", "exclude"));
  if (exclude) rootRules.add(exclude);
  walkDirectory(root, "", [{ base: "", rules: rootRules }], files, outsideLinks);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  outsideLinks.sort();
  return { files, outsideLinks };
}

function walkDirectory(root: string, relative: string, matchers: Matcher[], files: WalkedFile[], outsideLinks: string[]): void {
  const absolute = relative ? path.join(root, relative) : root;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(absolute, { withFileTypes: true });
  } catch {
    return;
  }
  let active = matchers;
  if (entries.some((entry) => entry.name === ".gitignore" && !entry.isDirectory())) {
    const text = readText(path.join(absolute, ".gitignore"));
    if (text) active = [...matchers, { base: relative ? `${relative}/` : "", rules: ignore().add(text) }];
  }
  for (const entry of entries) {
    if (entry.name === ".git") continue;
    const childRelative = relative ? `${relative}/${entry.name}` : entry.name;
    const childAbsolute = path.join(absolute, entry.name);
    if (entry.isDirectory()) {
      if (!isIgnored(active, `${childRelative}/`)) walkDirectory(root, childRelative, active, files, outsideLinks);
      continue;
    }
    if (isIgnored(active, childRelative)) continue;
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
      if (stat?.isFile()) files.push({ path: childRelative, size: stat.size, mtimeMs: stat.mtimeMs });
      continue;
    }
    if (!entry.isFile()) continue;
    const stat = safeStat(childAbsolute);
    if (stat) files.push({ path: childRelative, size: stat.size, mtimeMs: stat.mtimeMs });
  }
}

function isIgnored(matchers: Matcher[], relative: string): boolean {
  let ignored = false;
  for (const { base, rules } of matchers) {
    if (base && !relative.startsWith(base)) continue;
    const result = rules.test(relative.slice(base.length));
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
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
