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
 * The ignore rules git applies to a folder's files from above it, within its repository: the
 * `.gitignore` of every folder from `repositoryRoot` down to the folder's parent, and the
 * repository's `.git/info/exclude`, outermost first. Empty when the folder is the repository root.
 *
 * @throws TypeError when `root` is not `repositoryRoot` or a folder inside it
 */
export function outerIgnores(repositoryRoot: string, root: string): OuterRules[] {
  const below = path.relative(path.resolve(repositoryRoot), path.resolve(root));
  if (below === ".." || below.startsWith(`..${path.sep}`) || path.isAbsolute(below)) throw new TypeError(`repositoryRoot '${repositoryRoot}' must be the root '${root}' or a folder that holds it`);
  if (below === "") return [];
  const segments = below.split(path.sep);
  const outer: OuterRules[] = [];
  const add = (file: string, depth: number, text: string | undefined): void => {
    if (text === undefined) return;
    const prefix = `${segments.slice(depth).join("/")}/`;
    outer.push({ prefix, rules: ignore().add(text), file: path.relative(root, file).split(path.sep).join("/") });
  };
  // git reads the exclusions first, then each .gitignore, deeper ones winning.
  add(path.join(repositoryRoot, ".git", "info", "exclude"), 0, readText(path.join(repositoryRoot, ".git", "info", "exclude")));
  for (let depth = 0; depth < segments.length; depth++) {
    const file = path.join(repositoryRoot, ...segments.slice(0, depth), ".gitignore");
    add(file, depth, readText(file));
  }
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
