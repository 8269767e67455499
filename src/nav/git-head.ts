import fs from "node:fs";
import path from "node:path";
import { commonDirOf, gitDirOf } from "../access/git-files.ts";

/**
 * Reads the checked-out commit of a git checkout without running git:
 * `.git/HEAD`, then the ref file or `packed-refs`. Worktrees (a `.git` file
 * with `gitdir:`) are followed. Returns `undefined` when `root` is not a checkout.
 */
export function readGitHead(root: string): { commit: string; branch?: string } | undefined {
  try {
    const gitDir = gitDirOf(root);
    if (gitDir === undefined) return undefined;
    const head = fs.readFileSync(path.join(gitDir, "HEAD"), "utf8").trim();
    if (/^[0-9a-f]{40,64}$/.test(head)) return { commit: head };
    const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
    if (!ref) return undefined;
    const branch = ref.replace(/^refs\/heads\//, "");
    const commonDir = commonDirOf(gitDir);
    for (const dir of [gitDir, commonDir]) {
      try {
        const commit = fs.readFileSync(path.join(dir, ...ref.split("/")), "utf8").trim();
        if (commit) return { commit, branch };
      } catch {
        // not a loose ref here
      }
      try {
        const packed = fs.readFileSync(path.join(dir, "packed-refs"), "utf8");
        const line = packed.split("\n").find((entry) => entry.endsWith(` ${ref}`));
        if (line) return { commit: line.slice(0, line.indexOf(" ")), branch };
      } catch {
        // no packed refs here
      }
    }
    return { commit: "(no commits yet)", branch };
  } catch {
    return undefined;
  }
}
