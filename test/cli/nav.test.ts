import { describe, expect, test } from "vitest";
import { spawnSync } from "node:child_process";
import { BIN, makeRepo, runCli, SAMPLE_FILES } from "./run-cli.ts";

const repo = makeRepo(SAMPLE_FILES);

describe("rlmkit nav: the navigation tools for a person, no model needed", () => {
  test("info prints the repository at a glance", async () => {
    const run = await runCli(["nav", "info", "--repo", repo]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^files: 3$/m);
    expect(run.stdout).toMatch(/language=typescript\s+files=2/);
  });

  test("search prints path:line:column, the line and its enclosing symbol", async () => {
    const run = await runCli(["nav", "search", "base * 2", "--repo", repo]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe("src/retry.ts:6:17  return this.base * 2 ** attempt;  (RetryPolicy.next)");
  });

  test("refs prints each use with its kind and enclosing symbol", async () => {
    const run = await runCli(["nav", "refs", "RetryPolicy", "--repo", repo]);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe("src/main.ts:1:10  import { RetryPolicy } from './retry.ts';  (import)\nsrc/main.ts:4:14  return new RetryPolicy().next(3);  (call in start)");
  });

  test("search --json with options passed as a JSON argument", async () => {
    const run = await runCli(["nav", "search", "retrypolicy", '{"symbols": true}', "--repo", repo, "--json"]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.matches.map((match: { symbol: string }) => match.symbol)).toContain("RetryPolicy");
  });

  test("read prints a symbol's source with line numbers; outline and ls work from the working directory", async () => {
    const read = await runCli(["nav", "read", "RetryPolicy.next", "--repo", repo]);
    expect(read.code).toBe(0);
    expect(read.stdout).toContain("src/retry.ts:");
    expect(read.stdout).toMatch(/^\s*6\s+ {4}return this\.base \* 2 \*\* attempt;$/m);
    const outline = await runCli(["nav", "outline", "src/retry.ts"], { cwd: repo });
    expect(outline.code).toBe(0);
    expect(outline.stdout).toContain("RetryPolicy");
    const ls = await runCli(["nav", "ls", "src", "--json"], { cwd: repo });
    expect(JSON.parse(ls.stdout).entries.map((entry: { name: string }) => entry.name)).toEqual(["main.ts", "retry.ts"]);
  });

  test.each([
    { label: "a target that does not exist (the tool's own error)", args: ["nav", "read", "NoSuchThing", "--repo", repo], message: /^rlmkit: .*NoSuchThing/ },
    { label: "a missing repository", args: ["nav", "info", "--repo", "/nonexistent/rlmkit-repo"], message: /^rlmkit: repository not found: \/nonexistent\/rlmkit-repo/ },
    { label: "an unknown tool", args: ["nav", "grep", "x", "--repo", repo], message: /^rlmkit: unknown nav tool 'grep'; use one of: info, ls, outline, read, search, refs/ },
    { label: "a missing required argument", args: ["nav", "outline", "--repo", repo], message: /^rlmkit: nav_outline: missing required argument 'path'/ },
    { label: "too many arguments", args: ["nav", "info", "extra", "--repo", repo], message: /^rlmkit: nav_info takes at most 0 arguments/ },
  ])("fails with one line and exit 1 for $label", async ({ args, message }) => {
    const run = await runCli(args);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });
});

describe("rlmkit on an older Node", () => {
  test("stops with one line naming the Node it needs and how to run it, not a native-module stack trace", async () => {
    const pretend = 'data:text/javascript,Object.defineProperty(process.versions, "node", { value: "20.20.2" })';
    const child = spawnSync(process.execPath, ["--import", pretend, BIN, "nav", "info", "--repo", repo], { encoding: "utf8" });
    expect(child.status).toBe(1);
    expect(child.stderr).toMatch(/^rlmkit: needs Node 24 or newer, and this is Node 20\.20\.2; run it with the Node 24 its checkout installs: .*node_modules\/\.bin\/node .*bin\/rlmkit\.js \(or `npx rlmkit` inside .*\)\.\n$/);
  });
});
