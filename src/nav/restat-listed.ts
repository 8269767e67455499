import fs from "node:fs";
import path from "node:path";
import type { ReadRule } from "../access/read-rule.ts";
import { sameVersion } from "./index-filters.ts";
import { leadsOutside } from "./path-safety.ts";
import type { WalkedFile } from "./repo-walk.ts";
import { pathUnder } from "./text-scan.ts";
import type { WalkedFiles } from "./walked-files.ts";
import type { WalkState } from "./walk-state.ts";

/**
 * States a listed file again and lists it as it is now: the same object when it is unchanged, a new
 * version when it changed; `undefined` when it is gone or now leads to what the read rule refuses (a
 * checkout that turned it into a link to `.env`, or to a file outside the root, whose analysis would
 * show the target's symbols), and it is no longer listed; `null` when it is no longer a file (a folder
 * now, say), which only a new walk can list.
 */
export function restatListed(root: string, rule: ReadRule, files: WalkedFiles, relative: string, known: WalkedFile): WalkedFile | undefined | null {
  const absolute = pathUnder(root, relative);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(absolute);
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
  if (rule.refusal(relative) !== undefined || leadsOutside(root, absolute)) {
    files.delete(relative);
    return undefined;
  }
  const current = { path: relative, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, dev: stat.dev, ino: stat.ino };
  files.set(current);
  return current;
}

/**
 * The listed symlinks of a walk by the path of the file each leads to (inside the root), found on first need
 * and kept for that walk: a change the watchers report under a target's own path reaches the links to it.
 */
export class LinkTargets {
  #walk: WalkState | undefined;
  #byTarget = new Map<string, string[]>();

  /** The listed links of `walk` that lead to one of `changed`. */
  linksTo(root: string, walk: WalkState, changed: Iterable<string>): string[] {
    if (walk.links.length === 0) return [];
    if (this.#walk !== walk) {
      this.#walk = walk;
      this.#byTarget = new Map();
      for (const link of walk.links) {
        if (!walk.files.get(link)) continue;
        let target: string;
        try {
          target = path.relative(root, fs.realpathSync(pathUnder(root, link))).split(path.sep).join("/");
        } catch {
          continue;
        }
        const links = this.#byTarget.get(target);
        if (links) links.push(link);
        else this.#byTarget.set(target, [link]);
      }
    }
    const found: string[] = [];
    for (const relative of changed) found.push(...(this.#byTarget.get(relative) ?? []));
    return found;
  }
}
