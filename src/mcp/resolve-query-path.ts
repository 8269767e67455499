import { realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";

/** What a `path` argument of `rlm_query` points at. */
export type QueryTarget = { readonly kind: "file"; readonly absolute: string } | { readonly kind: "directory"; readonly absolute: string };

/**
 * Resolves a path given by an MCP client inside the server's repository,
 * following symbolic links, and refuses anything outside it. Throws an error
 * whose message can go straight back to the client.
 */
export function resolveQueryPath(repo: string, input: string): QueryTarget {
  if (input.includes("\0")) throw new Error("path must not contain NUL characters");
  const root = realpathSync(repo);
  let absolute: string;
  try {
    absolute = realpathSync(resolve(root, input));
  } catch {
    throw new Error(`path '${input}' does not exist in the repository ${root}`);
  }
  const inside = relative(root, absolute);
  if (inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside)) throw new Error(`path '${input}' is outside the repository ${root}; give a path inside it`);
  return { kind: statSync(absolute).isDirectory() ? "directory" : "file", absolute };
}
