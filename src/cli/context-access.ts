import { realpathSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import { enclosingRepository } from "../access/enclosing-repository.ts";
import { ReadRule } from "../access/read-rule.ts";
import { parseSecretFiles } from "../access/secret-files.ts";
import { isInside } from "../nav/path-safety.ts";
import { CliError } from "./cli-error.ts";

/**
 * Applies the read rule to `ask --context FILE` when the file is inside the
 * repository: a file the nav tools would refuse (in `.git/`, ignored by git,
 * a secret) is refused as `context` too, with a {@link CliError} saying why.
 * Files outside the repository, and stdin (`-`), are the person's own choice.
 */
export function checkContextFile(file: string, repo: string, secretFiles: string | undefined, cwd: string): void {
  if (file === "-") return;
  let root: string;
  let absolute: string;
  try {
    root = realpathSync(repo);
    absolute = realpathSync(resolve(cwd, file));
  } catch {
    return; // reading it reports what is missing
  }
  if (!isInside(root, absolute)) return;
  const secrets = secretFiles !== undefined ? parseSecretFiles(secretFiles) : undefined;
  // Under the ignore files of the git repository the folder lies in too, as the nav tools read it.
  const outer = enclosingRepository(root);
  const rule = new ReadRule(root, { ...(secrets !== undefined ? { secretFiles: secrets } : {}), ...(outer !== undefined ? { repositoryRoot: outer } : {}) });
  const refusal = rule.refusal(relative(root, absolute).split(sep).join("/"));
  if (refusal) throw new CliError(`--context ${file}: ${refusal.message}. To send it to the model anyway, pipe it in: --context - < ${file}`);
}
