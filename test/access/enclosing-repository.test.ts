/**
 * A folder a person names (`--repo`, or the folder the command line runs in) is read as a part of the git
 * repository it lies in, under that repository's ignore files, unless the repository ignores the folder itself.
 */
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { enclosingRepository } from "../../src/access/enclosing-repository.ts";
import { makeRepo, runCli } from "../cli/run-cli.ts";
import { tempDir } from "../support/temp-dir.ts";

let repo: string;
beforeAll(() => {
  repo = realpathSync(
    makeRepo({
      ".gitignore": "*.log\nnode_modules/\n",
      ".git/HEAD": "ref: refs/heads/main\n",
      "pkg/sub/a.ts": "export const KEPT_MARKER = 1;\n",
      "pkg/sub/x.log": "IGNORED_MARKER\n",
      "node_modules/dep/index.js": "module.exports = 'DEP_MARKER';\n",
      "node_modules/dep/dep.log": "DEP_LOG_MARKER\n",
      // A repository nested in this one, and a worktree whose .git is a file.
      "vendor/lib/.git/HEAD": "ref: refs/heads/main\n",
      "vendor/lib/src/v.ts": "export const v = 1;\n",
      "worktree/.git": "gitdir: ../.git/worktrees/w\n",
      "worktree/src/w.ts": "export const w = 1;\n",
    }),
  );
});

describe("enclosingRepository", () => {
  test.each([
    { folder: "pkg/sub", expected: "" },
    { folder: "pkg", expected: "" },
    { folder: "", expected: undefined },
    { folder: "node_modules/dep", expected: undefined },
    { folder: "vendor/lib/src", expected: "vendor/lib" },
    { folder: "vendor/lib", expected: undefined },
    { folder: "worktree/src", expected: "worktree" },
    { folder: "missing", expected: undefined },
  ])("'$folder' is read as a part of '$expected'", ({ folder, expected }) => {
    expect(enclosingRepository(join(repo, folder))).toBe(expected === undefined ? undefined : join(repo, expected));
  });

  test("a folder of no repository is its own", () => {
    const plain = tempDir("rlmkit-no-repo-");
    mkdirSync(join(plain, "sub"));
    expect(enclosingRepository(join(plain, "sub"))).toBeUndefined();
  });
});

describe("the command line on a folder inside a repository", () => {
  test("nav search leaves out what the repository's .gitignore ignores there; an ignored folder named on purpose is read whole", async () => {
    const sub = join(repo, "pkg", "sub");
    const kept = await runCli(["nav", "search", "MARKER", "--repo", sub, "--json"]);
    expect(kept.code).toBe(0);
    expect(JSON.parse(kept.stdout).matches.map((match: { path: string }) => match.path)).toEqual(["a.ts"]);
    // From the folder itself, with no --repo.
    const here = await runCli(["nav", "search", "IGNORED_MARKER", "--json"], { cwd: sub });
    expect(JSON.parse(here.stdout).matches).toEqual([]);
    const dep = await runCli(["nav", "search", "MARKER", "--repo", join(repo, "node_modules", "dep"), "--json"]);
    expect(JSON.parse(dep.stdout).matches.map((match: { path: string }) => match.path).sort()).toEqual(["dep.log", "index.js"]);
  });

  test("ask --context refuses a file the repository ignores, given from a folder inside it", async () => {
    writeFileSync(join(repo, "pkg", "sub", "y.log"), "IGNORED_MARKER\n");
    const run = await runCli(["ask", "what is in it?", "--repo", join(repo, "pkg", "sub"), "--context", join(repo, "pkg", "sub", "y.log")]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/--context .*y\.log: .*ignored.*\.gitignore/);
  });
});
