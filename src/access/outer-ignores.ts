import fs from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";

/** The rules of one ignore file above a root, and how a path below the root reads from that file's folder. */
export interface OuterRules {
  /** What goes before a path relative to the root to make it relative to the file's folder (`sub/` for `../.gitignore`). */
  readonly prefix: string;
  readonly rules: Ignore;
  /** The file, relative to the root (`../.gitignore`, `../../.git/info/exclude`). */
  readonly file: string;
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
  const outer: OuterRules[] = [];
  const add = (file: string, depth: number): void => {
    const text = readText(file);
    if (text === undefined) return;
    outer.push({ prefix: `${segments.slice(depth).join("/")}/`, rules: ignore().add(text), file: path.relative(root, file).split(path.sep).join("/") });
  };
  add(path.join(repository, ".git", "info", "exclude"), 0);
  for (let depth = 0; depth < segments.length; depth++) add(path.join(repository, ...segments.slice(0, depth), ".gitignore"), depth);
  return outer;
}

/** A file's text, or undefined when it cannot be read (most folders have no `.gitignore`: asking first is cheaper than a failed read). */
export function readText(file: string): string | undefined {
  if (!fs.existsSync(file)) return undefined;
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
