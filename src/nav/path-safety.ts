import fs from "node:fs/promises";
import fsSync from "node:fs";
import path from "node:path";

/** A path argument checked against the repository root. */
export type SafePath =
  | { readonly ok: true; readonly relative: string; readonly absolute: string }
  | { readonly ok: false; readonly error: string };

/**
 * Normalises a repository-relative path given by the model: `\` becomes `/`,
 * `./` and trailing `/` are dropped, and `""` or `.` means the root. Absolute
 * paths and any `..` segment are refused. The result never mentions host paths.
 */
export function normalizeRelativePath(input: string): { ok: true; relative: string } | { ok: false; error: string } {
  const slashed = input.trim().replace(/\\/g, "/");
  if (slashed.startsWith("/") || /^[A-Za-z]:\//.test(slashed) || slashed.startsWith("~")) {
    return { ok: false, error: `path '${input}' is absolute; use a path relative to the repository root, such as 'src/index.ts'` };
  }
  const segments = slashed.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.includes("..")) {
    return { ok: false, error: `path '${input}' leaves the repository ('..' is not allowed); use a path relative to the repository root` };
  }
  if (slashed.includes("\0")) return { ok: false, error: `path '${input}' contains a NUL character` };
  return { ok: true, relative: segments.join("/") };
}

/**
 * Resolves a relative path inside `root` (a real path) and checks that the
 * file it names, following symlinks, is still inside `root`.
 *
 * @param root - the repository root, already passed through `realpath`
 */
export async function resolveInside(root: string, input: string): Promise<SafePath> {
  const normalized = normalizeRelativePath(input);
  if (!normalized.ok) return normalized;
  const joined = path.join(root, ...normalized.relative.split("/"));
  let real: string;
  try {
    real = await fs.realpath(joined);
  } catch {
    return { ok: false, error: `no such file or directory: '${normalized.relative}'` };
  }
  if (!isInside(root, real)) {
    return { ok: false, error: outsideLinkMessage(normalized.relative) };
  }
  return { ok: true, relative: normalized.relative, absolute: real };
}

/** True when `candidate` is `root` or below it. Both must be absolute and normalised. */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  // `..x` or `...` is a name inside; only `..` itself, or a path through it, leads up.
  return relative === "" || (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/** True when the file at `absolute` (a path under `root`, a real path) is, or goes through, a symlink that leads out of `root`; false when it cannot be resolved. */
export function leadsOutside(root: string, absolute: string): boolean {
  try {
    return !isInside(root, fsSync.realpathSync(absolute));
  } catch {
    return false;
  }
}

/**
 * What the nav tools answer for a path that is, or goes through, a symlink out of the repository; or, `dangling`,
 * one whose target does not exist.
 */
export function outsideLinkMessage(relative: string, dangling = false): string {
  return dangling ? `'${relative}' is a symlink to nothing (what it names does not exist); it cannot be read` : `'${relative}' is a symlink that points outside the repository; it cannot be read`;
}
