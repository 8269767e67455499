import { statSync } from "node:fs";
import { resolve } from "node:path";
import { CliError } from "./cli-error.ts";

/** Resolves `--repo` against the working directory and checks it is a directory; a one-line {@link CliError} otherwise. */
export function resolveRepository(repo: string, cwd: string): string {
  const absolute = resolve(cwd, repo);
  let isDirectory = false;
  try {
    isDirectory = statSync(absolute).isDirectory();
  } catch {
    throw new CliError(`repository not found: ${repo} (resolved to ${absolute}); pass --repo DIR with an existing directory.`);
  }
  if (!isDirectory) throw new CliError(`--repo must be a directory, but ${absolute} is a file.`);
  return absolute;
}
