import fs from "node:fs";
import path from "node:path";

/**
 * Reads the checked-out commit of a git checkout without running git:
 * `.git/HEAD`, then the ref file or `packed-refs`. Worktrees (a `.git` file
 * with `gitdir:`) are followed. Returns `undefined` when `root` is not a checkout.
 */
export function readGitHead(root: string): { commit: string; branch?: string } | undefined {
  try {
    let gitDir = path.join(root, ".git");
    if (fs.statSync(gitDir).isFile()) {
      const pointer = /^gitdir:\s*(.+)$/m.exec(fs.readFileSync(gitDir, "utf8"));
      if (!pointer) return undefined;
      gitDir = path.resolve(root, pointer[1].trim());
    }
    const head = fs.readFileSync(path.join(gitDir, "HEAD"), "utf8").trim();
    if (/^[0-9a-f]{40,64}$/.test(head)) return { commit: head };
    const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
    if (!ref) return undefined;
    const branch = ref.replace(/^refs\/heads\//, "");
    const commonDir = readCommonDir(gitDir);
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

function readCommonDir(gitDir: string): string {
  try {
    return path.resolve(gitDir, fs.readFileSync(path.join(gitDir, "commondir"), "utf8").trim());
  } catch {
    return gitDir;
  }
}
