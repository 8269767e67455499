import fs from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";
import { exclusionsFileOf, globalExcludesFile, readText } from "./git-files.ts";

/** The rules of one ignore file above a root, and how a path below the root reads from that file's folder. */
export interface OuterRules {
  /** What goes before a path relative to the root to make it relative to the file's folder (`sub/` for `../.gitignore`). */
  readonly prefix: string;
  readonly rules: Ignore;
  /** The file, relative to the root (`../.gitignore`, `../../.git/info/exclude`), or what it is for one outside the work tree. */
  readonly file: string;
  /** Its text. */
  readonly text: string;
}

/**
 * The repository `root` belongs to, given that it lies in `repositoryRoot`: the innermost of `root`
 * and the folders above it, up to `repositoryRoot`, that holds a `.git` (a repository nested in
 * another, a vendored clone say, is a repository of its own); `repositoryRoot` when none does.
 * Resolved (`path.resolve`).
 *
 * @throws TypeError when `root` is not `repositoryRoot` or a folder inside it
 */
export function owningRepository(repositoryRoot: string, root: string): string {
  const outer = path.resolve(repositoryRoot);
  let folder = path.resolve(root);
  const below = path.relative(outer, folder);
  if (below === ".." || below.startsWith(`..${path.sep}`) || path.isAbsolute(below)) {
    throw new TypeError(`repositoryRoot '${repositoryRoot}' must be the root '${root}' or a folder that holds it`);
  }
  while (folder !== outer && !fs.existsSync(path.join(folder, ".git"))) folder = path.dirname(folder);
  return folder;
}

/**
 * The ignore rules git applies to the files of `root` from its repository `repository` (see
 * {@link owningRepository}) besides the root's own: the repository's `.git/info/exclude`, then the
 * `.gitignore` of every folder from `repository` down to the root's parent, in the order git lets
 * them decide (a later one overrides an earlier one: exclusions first, a deeper `.gitignore` after a
 * shallower one). Empty when the root is the repository's own.
 */
export function outerIgnores(repository: string, root: string): OuterRules[] {
  const below = path.relative(repository, path.resolve(root));
  if (below === "") return [];
  const segments = below.split(path.sep);
  const outer = repositoryIgnores(repository, root);
  for (let depth = 0; depth < segments.length; depth++) {
    const file = path.join(repository, ...segments.slice(0, depth), ".gitignore");
    const text = readText(file);
    if (text !== undefined) outer.push({ prefix: `${segments.slice(depth).join("/")}/`, rules: ignore().add(text), file: path.relative(root, file).split(path.sep).join("/"), text });
  }
  return outer;
}

/** How the ignore files that apply to a whole repository, besides its `.gitignore` files, are named in a refusal (no host path). */
export const GLOBAL_EXCLUDES_NAME = "git's global excludes file (core.excludesFile)";

/**
 * The ignore rules that apply to the whole of `repository` besides its `.gitignore` files, weakest
 * first, as a path of `root` (the repository's root or a folder of it) reads them: git's global
 * excludes file, then the repository's exclusions (`.git/info/exclude`, or a worktree's in its main
 * repository's git folder). Each tests a path from the repository's root, as git does.
 */
export function repositoryIgnores(repository: string, root: string): OuterRules[] {
  const below = path.relative(repository, path.resolve(root));
  const prefix = below === "" ? "" : `${below.split(path.sep).join("/")}/`;
  const rules: OuterRules[] = [];
  const global = globalExcludesFile(repository);
  const globalText = global === undefined ? undefined : readText(global);
  if (globalText !== undefined) rules.push({ prefix, rules: ignore().add(globalText), file: GLOBAL_EXCLUDES_NAME, text: globalText });
  const exclusions = exclusionsFileOf(repository);
  const exclusionsText = exclusions === undefined ? undefined : readText(exclusions);
  if (exclusions !== undefined && exclusionsText !== undefined) rules.push({ prefix, rules: ignore().add(exclusionsText), file: exclusionsName(repository, root, exclusions), text: exclusionsText });
  return rules;
}

// The exclusions file as a refusal names it: relative to the root when it is the repository's own `.git/info/exclude`, else as git's `info/exclude`.
function exclusionsName(repository: string, root: string, file: string): string {
  return file === path.join(repository, ".git", "info", "exclude") ? path.relative(path.resolve(root), file).split(path.sep).join("/") : "the repository's info/exclude (in its git folder)";
}
