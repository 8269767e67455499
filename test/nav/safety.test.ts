import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNavTools, type NavTools } from "../../src/nav/index.ts";
import { buildFixtureRepo, type FixtureRepo } from "./fixture-repo.ts";

let repo: FixtureRepo;
let nav: NavTools;

beforeAll(async () => {
  repo = await buildFixtureRepo();
  // A long line of a's followed by a character that makes `(a+)+$` backtrack exponentially.
  await fs.writeFile(path.join(repo.root, "src", "trap.txt"), `${"a".repeat(5000)}!\n`);
  // A link inside the repository to a file that does not exist.
  await fs.symlink("missing.ts", path.join(repo.root, "src", "dangling.ts"));
  // A name that starts with two dots, at the root: inside the repository like any other.
  await fs.writeFile(path.join(repo.root, "..notes.txt"), "dotted\n");
  nav = await createNavTools(repo.root, { cacheDir: false, searchTimeoutMs: 4000, maxFileBytes: 50_000 });
});

afterAll(async () => {
  await nav?.close();
  await repo?.remove();
});

// Every path-taking tool refuses these, and no error mentions a host path.
const REFUSED: [string, string, string][] = [
  ["parent directory", "../outside/secret.txt", "leaves the repository ('..' is not allowed)"],
  ["parent directory hidden in the middle", "src/../../outside/secret.txt", "leaves the repository ('..' is not allowed)"],
  ["absolute path", "/etc/passwd", "is absolute"],
  ["Windows absolute path", "C:\\Windows\\win.ini", "is absolute"],
  ["symlink to a file outside", "src/escape.ts", "'src/escape.ts' is a symlink that points outside the repository"],
  ["file through a symlinked directory outside", "linked-outside/secret.txt", "'linked-outside' is a symlink that points outside the repository"],
  ["symlink to nothing", "src/dangling.ts", "'src/dangling.ts' is a symlink to nothing (what it names does not exist)"],
];

describe("path safety", () => {
  test.each(REFUSED)("nav_read refuses a %s", async (_label, target, message) => {
    const result = await nav.read(target);
    expect(result).toEqual({ error: expect.stringContaining(message) });
    expect(JSON.stringify(result)).not.toContain(repo.root);
    expect(JSON.stringify(result)).not.toContain("TOP SECRET");
  });

  test.each(REFUSED)("nav_ls and nav_outline refuse a %s", async (_label, target, message) => {
    expect(await nav.ls(target)).toEqual({ error: expect.stringContaining(message) });
    expect(await nav.outline(target)).toEqual({ error: expect.stringContaining(message) });
  });

  test("a line range on an escaping symlink is refused too", async () => {
    expect(await nav.read("src/escape.ts:1-1")).toEqual({ error: "'src/escape.ts' is a symlink that points outside the repository; it cannot be read" });
  });

  test("ignored files and .git cannot be read by naming them, and the error says why", async () => {
    expect(await nav.read("ignored/secret.ts")).toEqual({ error: expect.stringMatching(/^'ignored\/secret\.ts' may not be read: its folder 'ignored' is ignored by git \(rule 'ignored\/' in \.gitignore\)/), refused: "ignored" });
    expect(await nav.read(".git/config")).toEqual({ error: expect.stringMatching(/^'\.git\/config' may not be read: it is in \.git\/, git's own data/), refused: "git" });
  });

  test("a file whose name starts with two dots is read, not taken for a path that leads up", async () => {
    expect(await nav.read("..notes.txt")).toMatchObject({ path: "..notes.txt", text: "dotted" });
  });

  test("a symlink that stays inside the repository is read normally", async () => {
    expect(await nav.read("lib/alias.js:1")).toMatchObject({ path: "lib/alias.js", text: "/** Retries a function. */" });
  });
});

describe("size cap", () => {
  test("a file over the cap is listed and flagged but not read whole", async () => {
    const listing = await nav.ls("big");
    expect(listing).toMatchObject({ entries: [{ name: "huge.ts", type: "file", language: "typescript", large: true }] });
    expect(await nav.read("big/huge.ts")).toEqual({ error: expect.stringContaining("over the 50000-byte cap for whole-file reads; read a line range such as 'big/huge.ts:1-200'") });
    expect(await nav.outline("big/huge.ts")).toMatchObject({ symbols: [] });
  });

  test("a line range of a file over the cap is streamed", async () => {
    expect(await nav.read("big/huge.ts:4997-4999")).toEqual({
      path: "big/huge.ts",
      startLine: 4997,
      endLine: 4999,
      text: "export function step1250(): number {\n  return 1250; // huge body line\n}",
      chunk: 1,
      chunks: 1,
    });
  });
});

describe("bounded regex search", () => {
  test("a catastrophic pattern answers within the time limit, and the next search works", async () => {
    // `(a+)+$` backtracks exponentially on the 5,000 a's; it runs on the linear-time engine instead.
    expect(await nav.search("(a+)+$", { regex: true, glob: "src/trap.txt" })).toEqual({ matches: [], truncated: false });
    expect(await nav.search("(a+)+!$", { regex: true, glob: "src/trap.txt" })).toMatchObject({ matches: [{ path: "src/trap.txt", line: 1, column: 1 }] });
    expect(await nav.search("Parser", { glob: "src/*.ts", caseSensitive: true, limit: 1 })).toMatchObject({ matches: [{ path: "src/parser.ts", line: 5 }], truncated: true });
  });

  test("a catastrophic pattern over symbol names answers too", async () => {
    await fs.writeFile(path.join(repo.root, "src", "names.py"), `${"a".repeat(40)}b = 1\n`);
    const fresh = await createNavTools(repo.root, { cacheDir: false, searchTimeoutMs: 4000 });
    try {
      expect(await fresh.search("^(a|a)+$", { regex: true, symbols: true })).toEqual({ matches: [], truncated: false });
      expect(await fresh.search("^(a|a)+b$", { regex: true, symbols: true })).toMatchObject({ matches: [{ path: "src/names.py", symbol: `${"a".repeat(40)}b` }] });
    } finally {
      await fresh.close();
      await fs.rm(path.join(repo.root, "src", "names.py"));
    }
  });

  test("a search that runs out of time answers with an error value", async () => {
    const slow = await createNavTools(repo.root, { cacheDir: false, searchTimeoutMs: 1 });
    try {
      // A repeated group holding a repetition runs on the workers, which take longer than 1 ms to start.
      expect(await slow.search(String.raw`(?:retr\w*)+`, { regex: true })).toEqual({ error: expect.stringContaining("search stopped after 1 ms without finishing") });
    } finally {
      await slow.close();
    }
  });
});
