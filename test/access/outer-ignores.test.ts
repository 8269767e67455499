/**
 * A folder of a repository read under the repository's ignore files: the `.gitignore` files above the
 * folder and `.git/info/exclude` apply, as git applies them, when the rule is told the repository's root
 * (MCP's `rlm_query` with a folder as `path` tells it).
 */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNavTools, ReadRule, ScriptedModel } from "../../src/index.ts";
import { createMcpServer } from "../../src/mcp/index.ts";
import { startWalkHelper } from "../../src/nav/parallel-walk.ts";
import { connectedClient } from "../support/mcp-client.ts";
import { js, makeRepo } from "../cli/run-cli.ts";

const FILES: Record<string, string> = {
  ".gitignore": "*.log\npkg/build/\n",
  ".git/info/exclude": "local-notes.md\n",
  "pkg/.gitignore": "cache/\n",
  "pkg/build/out.js": "IGNORED_MARKER\n",
  "pkg/sub/.gitignore": "!keep.log\n",
  "pkg/sub/a.ts": "export const KEPT_MARKER = 1;\n",
  "pkg/sub/x.log": "IGNORED_MARKER\n",
  "pkg/sub/keep.log": "KEPT_MARKER in a log kept on purpose\n",
  "pkg/sub/cache/c.ts": "export const c = 'IGNORED_MARKER';\n",
  "pkg/sub/lib/b.ts": "export const b = 2;\n",
  "pkg/sub/lib/y.log": "IGNORED_MARKER\n",
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
