import fs from "node:fs";
import type { ReadRule } from "../access/read-rule.ts";
import { sameVersion } from "./index-filters.ts";
import { leadsOutside } from "./path-safety.ts";
import type { WalkedFile } from "./repo-walk.ts";
import { pathUnder } from "./text-scan.ts";
import type { WalkedFiles } from "./walked-files.ts";

/**
 * States a listed file again and lists it as it is now: the same object when it is unchanged, a new
 * version when it changed; `undefined` when it is gone or now leads to what the read rule refuses (a
 * checkout that turned it into a link to `.env`, or to a file outside the root, whose analysis would
 * show the target's symbols), and it is no longer listed; `null` when it is no longer a file (a folder
 * now, say), which only a new walk can list.
 */
export function restatListed(root: string, rule: ReadRule, files: WalkedFiles, relative: string, known: WalkedFile): WalkedFile | undefined | null {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(pathUnder(root, relative));
  } catch {
    files.delete(relative);
    return undefined;
  }
  if (!stat.isFile()) {
    files.delete(relative);
    return null;
  }
  // The same times and size may be another file's (one written in the same tick of the clock): the identity tells.
  if (sameVersion(known, stat) && stat.dev === known.dev && stat.ino === known.ino) return known;
  if (rule.refusal(relative) !== undefined || leadsOutside(root, pathUnder(root, relative))) {
    files.delete(relative);
    return undefined;
  }
  const current = { path: relative, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, dev: stat.dev, ino: stat.ino };
  files.set(current);
  return current;
}
