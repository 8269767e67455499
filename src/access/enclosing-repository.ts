import fs from "node:fs";
import path from "node:path";
import { ReadRule, type ReadRuleOptions } from "./read-rule.ts";

/**
 * The git repository a folder that a person names (the command line's `--repo`, the folder it runs
 * in) is read as a part of: the nearest folder above it that holds a `.git` (a folder, or the file of
 * a worktree or submodule), so that the `.gitignore` files above the folder and the repository's
 * exclusions apply to it as git applies them (pass it as {@link ReadRuleOptions.repositoryRoot}).
 * `undefined` when the folder is a repository's own root, lies in no repository, cannot be resolved,
 * or lies in a repository that ignores the folder itself (a dependency under an ignored
 * `node_modules/`, say): a folder named on purpose is then read as a repository of its own.
 */
export function enclosingRepository(folder: string): string | undefined {
  let real: string;
  try {
    real = fs.realpathSync(folder);
  } catch {
    return undefined;
  }
  if (holdsGit(real)) return undefined;
  for (let below = real, above = path.dirname(real); above !== below; below = above, above = path.dirname(above)) {
    if (!holdsGit(above)) continue;
    const relative = path.relative(above, real).split(path.sep).join("/");
    // Secret-file patterns name files: what refuses a folder is git's own data and its ignore files.
    return new ReadRule(above).refusal(relative) ? undefined : above;
  }
  return undefined;
}

function holdsGit(folder: string): boolean {
  return fs.existsSync(path.join(folder, ".git"));
}
