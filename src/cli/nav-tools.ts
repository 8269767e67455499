import { parseSecretFiles } from "../access/secret-files.ts";
import type { NavTools } from "../nav/index.ts";
import type { Tool } from "../tools/tool.ts";
import { CliError } from "./cli-error.ts";

export { NAV_TOOL_NAMES } from "../nav/nav-tool-names.ts";

const opened: NavTools[] = [];

/**
 * Creates the six navigation tools over a repository (see `createNavTools`).
 * The indexes stay open for the life of the process (the MCP server reuses
 * them); {@link closeNavTools} saves their caches.
 */
export async function loadNavTools(repo: string, secretFiles?: string): Promise<Tool[]> {
  return (await openNav(repo, secretFiles)).tools;
}

/**
 * Opens a repository for navigation (kept open until {@link closeNavTools}); a
 * one-line {@link CliError} when it cannot be. `secretFiles` is the config value
 * (comma-separated globs, or `none`); default: the built-in list. A folder inside
 * a git repository is read under that repository's ignore files too (see
 * `enclosingRepository`), and so is a folder of it given with `repositoryRoot`.
 */
export async function openNav(repo: string, secretFiles?: string, repositoryRoot?: string): Promise<NavTools> {
  let nav: NavTools;
  try {
    const secrets = secretFiles !== undefined ? parseSecretFiles(secretFiles) : undefined;
    // The read rule, the index and its tree-sitter grammars load only when a repository is opened.
    const { enclosingRepository } = await import("../access/enclosing-repository.ts");
    const outer = enclosingRepository(repositoryRoot ?? repo) ?? repositoryRoot;
    const { createNavTools } = await import("../nav/create-nav-tools.ts");
    nav = await createNavTools(repo, { ...(secrets !== undefined ? { secretFiles: secrets } : {}), ...(outer !== undefined ? { repositoryRoot: outer } : {}) });
  } catch (error) {
    throw new CliError(`cannot open the repository ${repo} for navigation: ${(error as Error).message}`, { cause: error });
  }
  opened.push(nav);
  return nav;
}

/** Saves the index caches and stops the search workers of every repository opened by {@link loadNavTools}. */
export async function closeNavTools(): Promise<void> {
  const all = opened.splice(0);
  await Promise.allSettled(all.map((nav) => nav.close()));
}
