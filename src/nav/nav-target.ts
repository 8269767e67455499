import { resolvePath, type NavContext, type ResolvedPath } from "./nav-context.ts";
import type { NavError } from "./nav-results.ts";
import { looksLikePath, normalizeSymbolName } from "./symbol-names.ts";

/** What a target argument of `nav_read`, `nav_ls` or `nav_refs` names. */
export type NavTarget =
  | { readonly type: "path"; readonly resolved: ResolvedPath }
  | { readonly type: "range"; readonly path: string; readonly startLine: number; readonly endLine: number }
  /** A symbol name, in `file` when the target was `file#Name`; `pathLike` when a miss should suggest paths. */
  | { readonly type: "symbol"; readonly name: string; readonly file?: string; readonly pathLike: boolean }
  | { readonly type: "missing-path"; readonly path: string };

const RANGE = /^(.*?):(\d+)(?:-(\d+))?$/;

/**
 * The one rule that decides what a target names, shared by every nav tool:
 *
 * 1. `path:start-end` or `path:line` whose path is an indexed file: a line range;
 * 2. an indexed directory or file: that path;
 * 3. `file#Name` where the text before a `#` is an indexed file: a symbol in that
 *    file (so `src/a.ts#Model.#classify` and `Model.#classify` both work: a `#`
 *    whose prefix is no file belongs to the name);
 * 4. anything else: a symbol name, normalised (`Shape::area`, Go `(*Server).Start`).
 *
 * A target that only looks like a path (see {@link looksLikePath}) and names
 * nothing is reported as a missing path; refused paths (`..`, absolute) are
 * errors only when the target looks like a path, so `~Shape` is a C++ destructor;
 * a path the read rule refuses (`.env`, `.git/config`) is an error that says why.
 */
export function parseTarget(context: NavContext, target: string): NavTarget | NavError {
  const pathLike = looksLikePath(target);
  const range = RANGE.exec(target);
  if (range) {
    const resolved = resolvePath(context, range[1]);
    if (resolved && "error" in resolved) {
      if (pathLike || resolved.refused) return resolved;
    } else if (resolved?.type === "file") {
      const startLine = Number(range[2]);
      return { type: "range", path: resolved.path, startLine, endLine: range[3] === undefined ? startLine : Number(range[3]) };
    }
  }
  const whole = resolvePath(context, target);
  if (whole && "error" in whole) {
    if (pathLike || whole.refused) return whole;
  } else if (whole) return { type: "path", resolved: whole };
  for (let hash = target.indexOf("#"); hash !== -1; hash = target.indexOf("#", hash + 1)) {
    const prefix = target.slice(0, hash);
    if (prefix === "") continue;
    const resolved = resolvePath(context, prefix);
    const prefixLike = looksLikePath(prefix);
    if (resolved && "error" in resolved) {
      if (prefixLike || resolved.refused) return resolved;
      continue;
    }
    if (resolved?.type === "dir") return { error: `'${resolved.path || "."}' is a directory; write 'file#Name', e.g. '${resolved.path ? `${resolved.path}/` : ""}index.ts#main'` };
    if (resolved?.type === "file") return { type: "symbol", name: normalizeSymbolName(target.slice(hash + 1)), file: resolved.path, pathLike: false };
    if (prefixLike) return { type: "missing-path", path: prefix };
  }
  return { type: "symbol", name: normalizeSymbolName(target), pathLike };
}
