import type { Tool } from "../tools/tool.ts";
import { CliError } from "./cli-error.ts";

/** The names of the five navigation tools, in the order they are documented. */
export const NAV_TOOL_NAMES = ["nav_info", "nav_ls", "nav_outline", "nav_read", "nav_search"] as const;

// Resolved at run time (the path is rewritten to .js in the build), so the CLI
// compiles and runs its other commands while the nav module is still being built.
const NAV_MODULE = "../nav/index.ts";

/**
 * Creates the five navigation tools over a repository (see `createNavTools` in
 * `src/nav`). Throws a one-line {@link CliError} when this build has none.
 */
export async function loadNavTools(repo: string): Promise<Tool[]> {
  let module: { createNavTools?: (repo: string) => unknown };
  try {
    module = (await import(NAV_MODULE)) as typeof module;
  } catch (error) {
    throw new CliError(`the navigation tools are not available in this build (${(error as Error).message.split("\n")[0]})`, { cause: error });
  }
  if (typeof module.createNavTools !== "function") throw new CliError("the navigation tools are not available in this build (no createNavTools export)");
  const created = (await module.createNavTools(repo)) as Tool[] | { tools: Tool[] };
  const tools = Array.isArray(created) ? created : created.tools;
  if (!Array.isArray(tools)) throw new CliError("createNavTools returned no tools");
  return tools;
}
