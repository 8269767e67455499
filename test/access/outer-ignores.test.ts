/**
 * A folder of a repository read under the repository's ignore files: the `.gitignore` files above the
 * folder and `.git/info/exclude` apply, as git applies them, when the rule is told the repository's root
 * (MCP's `rlm_query` with a folder as `path` tells it).
 */
import { realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNavTools, ReadRule, ScriptedModel } from "../../src/index.ts";
import { createMcpServer } from "../../src/mcp/index.ts";
import { indexCacheFile } from "../../src/nav/index-cache.ts";
import { listingFileOf, readListing, replayListing } from "../../src/nav/walk-listing.ts";
import { startWalkHelper } from "../../src/nav/parallel-walk.ts";
import { tempDir } from "../support/temp-dir.ts";
import { connectedClient } from "../support/mcp-client.ts";
import { js, makeRepo } from "../cli/run-cli.ts";

const FILES: Record<string, string> = {
  ".gitignore": "*.log\npkg/build/\n",
  // Any .gitignore decides before the exclusions (git's order): this `!*.log` does not re-include x.log.
  ".git/info/exclude": "local-notes.md\n!*.log\n",
  "pkg/.gitignore": "cache/\n",
  "pkg/build/out.js": "IGNORED_MARKER\n",
  "pkg/sub/.gitignore": "!keep.log\n",
  "pkg/sub/a.ts": "export const KEPT_MARKER = 1;\n",
  "pkg/sub/x.log": "IGNORED_MARKER\n",
  "pkg/sub/keep.log": "KEPT_MARKER in a log kept on purpose\n",
  "pkg/sub/cache/c.ts": "export const c = 'IGNORED_MARKER';\n",
  "pkg/sub/lib/b.ts": "export const b = 2;\n",
  "pkg/sub/lib/y.log": "IGNORED_MARKER\n",
  // A repository nested in this one (a vendored clone): its own exclusions apply, this one's .gitignore does not.
  "pkg/vendor-lib/.git/info/exclude": "private.txt\n",
  "pkg/vendor-lib/private.txt": "NESTED_MARKER\n",
  "pkg/vendor-lib/notes.log": "a log git does not ignore here\n",
  "pkg/sub/local-notes.md": "IGNORED_MARKER\n",
};

let repo: string;
let sub: string;
beforeAll(() => {
  repo = realpathSync(makeRepo(FILES));
  sub = join(repo, "pkg", "sub");
});

describe("ReadRule with repositoryRoot", () => {
  test.each([
    { path: "x.log", reason: "ignored", file: "../../.gitignore" },
    { path: "cache/c.ts", reason: "ignored", file: "../.gitignore" },
    { path: "local-notes.md", reason: "ignored", file: "../../.git/info/exclude" },
    { path: "keep.log", reason: undefined },
    { path: "a.ts", reason: undefined },
  ])("$path in pkg/sub: $reason", ({ path, reason, file }) => {
    const refusal = new ReadRule(sub, { repositoryRoot: repo }).refusal(path);
    expect(refusal?.reason).toBe(reason);
    if (file) expect(refusal?.message).toContain(`in ${file})`);
  });

  test("a pattern anchored at the repository's root applies to the folder's own paths", () => {
    expect(new ReadRule(join(repo, "pkg"), { repositoryRoot: repo }).refusal("build/out.js")?.reason).toBe("ignored");
    expect(new ReadRule(join(repo, "pkg"), { repositoryRoot: repo }).refusal("sub/a.ts")).toBeUndefined();
  });

  test("at the repository's root, a .gitignore decides before .git/info/exclude, as in git", () => {
    expect(new ReadRule(repo).refusal("pkg/sub/x.log")?.message).toContain("in .gitignore)");
    expect(new ReadRule(repo).refusal("pkg/sub/local-notes.md")?.message).toContain("in .git/info/exclude)");
  });

  test("a repository nested on the way is the one whose ignore files apply", () => {
    const nested = join(repo, "pkg", "vendor-lib");
    const rule = new ReadRule(nested, { repositoryRoot: repo });
    expect(rule.repositoryRoot).toBe(nested);
    expect(rule.readsAbove).toBe(false);
    expect(rule.refusal("private.txt")?.reason).toBe("ignored");
    expect(rule.refusal("notes.log")).toBeUndefined();
  });

  test("the repository's root spelled another way is the root", () => {
    for (const spelling of [`${repo}/`, `${repo}/.`, join(sub, "..", "..")]) {
      const rule = new ReadRule(repo, { repositoryRoot: spelling });
      expect(rule.readsAbove, spelling).toBe(false);
      expect(rule.refusal("pkg/sub/local-notes.md")?.reason, spelling).toBe("ignored");
    }
  });

  test("without it, the folder is its own repository: only its own ignore files apply", () => {
    expect(new ReadRule(sub).refusal("x.log")).toBeUndefined();
    expect(new ReadRule(sub).refusal("cache/c.ts")).toBeUndefined();
  });

  test("the repository's root itself, given as such, changes nothing", () => {
    expect(new ReadRule(repo, { repositoryRoot: repo }).refusal("pkg/sub/local-notes.md")?.reason).toBe("ignored");
    expect(new ReadRule(repo, { repositoryRoot: repo }).options).toEqual(new ReadRule(repo).options);
  });

  test("a repositoryRoot that does not hold the root is refused at once", () => {
    expect(() => new ReadRule(repo, { repositoryRoot: sub })).toThrow(/repositoryRoot '.*sub' must be the root '.*' or a folder that holds it/);
    expect(() => new ReadRule(sub, { repositoryRoot: join(repo, "pk") })).toThrow(TypeError);
  });

  test("a walk on another thread makes the same rule", () => {
    const walked = startWalkHelper(sub, new ReadRule(sub, { repositoryRoot: repo }).options, ["lib", "cache"]).collect();
    expect(walked!.get("lib")!.files.map((one) => one.path)).toEqual(["lib/b.ts"]);
    expect(walked!.has("cache")).toBe(false);
  });
});

describe("nav tools on a folder of a repository", () => {
  test("never list, search or read what the ignore files above it refuse", async () => {
    const nav = await createNavTools(sub, { cacheDir: false, repositoryRoot: repo });
    try {
      expect((await nav.search("IGNORED_MARKER")) as object).toMatchObject({ matches: [] });
      expect(((await nav.search("KEPT_MARKER")) as { matches: { path: string }[] }).matches.map((match) => match.path).sort()).toEqual(["a.ts", "keep.log"]);
      expect(await nav.read("x.log")).toMatchObject({ refused: "ignored" });
      expect(JSON.stringify(await nav.ls(""))).not.toMatch(/x\.log|cache|local-notes/);
    } finally {
      await nav.close();
    }
  });
});

describe("the walk's listing", () => {
  test("is kept for a folder of a repository too, and not used once an ignore file above it changed", async () => {
    const fresh = realpathSync(makeRepo({ ".gitignore": "*.log\n", ".git/HEAD": "ref: refs/heads/main\n", "pkg/a.ts": "export const a = 1;\n", "pkg/x.log": "LOG_MARKER\n" }));
    const pkg = join(fresh, "pkg");
    // A listing is kept only from a walk of folders and ignore files that last changed 2 s before it.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const cacheDir = tempDir("rlmkit-listing-");
    const nav = await createNavTools(pkg, { cacheDir, repositoryRoot: fresh });
    expect(await nav.search("MARKER")).toEqual({ matches: [], truncated: false });
    await nav.close();
    const listing = readListing(listingFileOf(indexCacheFile(cacheDir, pkg)))!;
    expect(listing.files).toEqual(["a.ts"]);
    expect(replayListing(pkg, listing, new ReadRule(pkg, { repositoryRoot: fresh }))?.files.map((file) => file.path)).toEqual(["a.ts"]);
    // The .gitignore above the folder no longer ignores logs: the listing made under it is not used.
    writeFileSync(join(fresh, ".gitignore"), "*.tmp\n");
    expect(replayListing(pkg, listing, new ReadRule(pkg, { repositoryRoot: fresh }))).toBeUndefined();
    const again = await createNavTools(pkg, { cacheDir, repositoryRoot: fresh });
    expect(await again.search("MARKER")).toMatchObject({ matches: [expect.objectContaining({ path: "x.log" })] });
    await again.close();
  }, 20_000);
});

describe("MCP's rlm_query with a folder as path", () => {
  let client: Client;
  let model: ScriptedModel;
  beforeAll(async () => {
    const code = 'const ignored = nav_search("IGNORED_MARKER")\nconst kept = nav_search("KEPT_MARKER")\nFINAL(JSON.stringify([ignored.matches.length, kept.matches.length]))';
    model = new ScriptedModel([js(code)]);
    const server = createMcpServer({ repo, openRepository: (directory, options) => createNavTools(directory, { cacheDir: false, ...options }), createModel: () => model });
    client = await connectedClient(server, "outer-ignores-test");
  });
  afterAll(async () => client?.close());

  test("reads the folder under the repository's ignore files", async () => {
    const result = (await client.callTool({ name: "rlm_query", arguments: { question: "What is marked?", path: "pkg/sub" } })) as { isError?: boolean; content: { text: string }[] };
    expect(result.isError, result.content[0]?.text).toBeFalsy();
    expect(result.content[0].text).toBe("[0,2]");
  });
});
