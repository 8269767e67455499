/**
 * The first regular-expression search of a process runs on the calling thread,
 * under a time guard, when its pattern has no repeated group holding a repetition;
 * a pattern that runs out of the guard's time there is searched on the workers.
 * Either way the lines are those the workers find.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNavTools, DEFAULT_MAX_FILE_BYTES, type NavSearchOptions, type NavTools } from "../../src/nav/index.ts";
import { TextSearchEngine, type SearchFile, type TextSearchRequest } from "../../src/nav/text-search.ts";
import { FIXTURE_SOURCE } from "./fixture-repo.ts";

let root: string;
let onWorkers: NavTools;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-first-regex-"));
  await fs.cp(FIXTURE_SOURCE, root, { recursive: true });
  await fs.writeFile(path.join(root, "greek.txt"), ["ΟΔΥΣΣΕΥΣ retry", "οδυσσευς retry", "Odysseus RETRY\r", "  class  LateError(Exception): pass", "no line feed at the end: retry"].join("\n"));
  // Empty lines first and last, a CRLF line, and a last line without a line feed.
  await fs.writeFile(path.join(root, "blank.txt"), "\n\nretry\r\n\nx retry y\n\nlast retry");
  await fs.writeFile(path.join(root, "blob.bin"), Buffer.from([1, 0, 2, 0, ...Buffer.from("class XError")]));
  // A repeated group holding a repetition runs on the workers' linear-time engine: these tools' workers then hold every text.
  onWorkers = await createNavTools(root, { cacheDir: false, searchTimeoutMs: 10_000 });
  expect(await onWorkers.search(String.raw`(?:r[e]\w*)+try`, { regex: true })).not.toHaveProperty("error");
});

afterAll(async () => {
  await onWorkers?.close();
  if (root) await fs.rm(root, { recursive: true, force: true });
});

const PATTERNS: [string, NavSearchOptions][] = [
  [String.raw`^\s*class\s+\w+Error\b`, { caseSensitive: true }],
  [String.raw`def\s+\w+\(self`, { limit: 1000 }],
  [String.raw`import\s+(os|sys)\b`, {}],
  [String.raw`retr[y]`, { caseSensitive: false, limit: 1000 }],
  [String.raw`ΟΔΥΣ+ΕΥΣ`, { caseSensitive: false }],
  [String.raw`\w+\(`, { limit: 5 }],
  [String.raw`\w+\(`, { limit: 100_000, glob: "**/*.py" }],
  [String.raw`y$`, { limit: 1000 }],
  [String.raw`^$`, { limit: 100_000 }],
  [String.raw`^`, { limit: 100_000, glob: "*.txt" }],
  [String.raw`retry\s*$`, { limit: 1000 }],
  [String.raw`no such text\s+anywhere`, {}],
];

describe("a first regular-expression search, on the calling thread", () => {
  test.for(PATTERNS)("runs there: %s %j", ([query, options]) => {
    const engine = new TextSearchEngine(10_000);
    const files = [{ path: "a.py", size: 100, mtimeMs: 0 }];
    expect(engine.runsOnWorkers(files, { regex: true, query, caseSensitive: options.caseSensitive ?? false, maxFileBytes: DEFAULT_MAX_FILE_BYTES })).toBe(false);
  });

  test("a pattern with a repeated group holding a repetition runs on the workers", () => {
    const engine = new TextSearchEngine(10_000);
    const files = [{ path: "a.py", size: 100, mtimeMs: 0 }];
    expect(engine.runsOnWorkers(files, { regex: true, query: String.raw`(\w+\s?)+:$`, caseSensitive: true, maxFileBytes: DEFAULT_MAX_FILE_BYTES })).toBe(true);
  });

  test.for(PATTERNS)("finds what the workers find: %s %j", async ([query, options]) => {
    const first = await createNavTools(root, { cacheDir: false, searchTimeoutMs: 10_000 });
    try {
      const here = await first.search(query, { ...options, regex: true });
      expect(here).not.toHaveProperty("error");
      expect(here).toEqual(await onWorkers.search(query, { ...options, regex: true }));
    } finally {
      await first.close();
    }
  });

  test("a pattern that backtracks for hours on one file is given up there and searched on the workers, every file's lines found", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-first-regex-slow-"));
    try {
      // O(n^4) backtracking on the 3,000 spaces; the other files match, before and after it.
      await fs.writeFile(path.join(dir, "a.txt"), "  x\n");
      await fs.writeFile(path.join(dir, "m.txt"), `${" ".repeat(3000)}!\n`);
      await fs.writeFile(path.join(dir, "z.txt"), "no\n x\n");
      const nav = await createNavTools(dir, { cacheDir: false, searchTimeoutMs: 8000 });
      try {
        const found = await nav.search(String.raw`^\s*\s*\s*\s*x`, { regex: true });
        expect(found).toEqual({
          matches: [
            { path: "a.txt", line: 1, column: 1, text: "  x", symbol: null },
            { path: "z.txt", line: 2, column: 1, text: " x", symbol: null },
          ],
          truncated: false,
        });
        // The tools go on: a literal now runs on the workers, which hold the texts.
        expect(await nav.search("x")).toMatchObject({ matches: [{ path: "a.txt" }, { path: "z.txt" }] });
      } finally {
        await nav.close();
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

// The files of a directory as a search takes them, in path order.
async function filesOf(dir: string): Promise<SearchFile[]> {
  const names = (await fs.readdir(dir)).sort();
  return Promise.all(names.map(async (name) => ({ path: name, size: (await fs.stat(path.join(dir, name))).size, mtimeMs: 0 })));
}

describe("where a first pattern search runs, and its time", () => {
  let dir: string;
  const request = (query: string, limit: number): TextSearchRequest => ({ root: dir, query, regex: true, caseSensitive: true, limit, maxFileBytes: DEFAULT_MAX_FILE_BYTES });

  beforeAll(async () => {
    dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-first-regex-engine-")));
    // Six files of about 900 KB (more than one 4 Mi-character batch: the first holds five), the matches in the last only.
    for (let index = 0; index < 6; index++) {
      const lines = Array.from({ length: 15_000 }, (_, line) => (index === 5 && line % 1000 === 7 ? `def found_${index}_${line}(self):` : `x = ${line} + ${index}  # filler text`));
      await fs.writeFile(path.join(dir, `f${index}.py`), `${lines.join("\n")}\n`);
    }
    await fs.writeFile(path.join(dir, "spaces.txt"), `${" ".repeat(3000)}!\n`);
  });

  afterAll(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  test("a pattern runs on the calling thread over several batches, and stops at its limit in a later one", async () => {
    const files = (await filesOf(dir)).filter((file) => file.path.endsWith(".py"));
    const here = new TextSearchEngine(10_000);
    const workers = new TextSearchEngine(10_000);
    try {
      // The workers hold the texts after a first search of theirs (a repeated group holding a repetition).
      expect(await workers.search(files, request(String.raw`(?:x\w*)+ = 1`, 1))).not.toHaveProperty("error");
      for (const limit of [3, 1000]) {
        const found = await here.search(files, request(String.raw`def\s+found_\d+_\d+\(self`, limit));
        expect(here.lastRanOn).toBe("calling thread");
        const expected = await workers.search(files, request(String.raw`def\s+found_\d+_\d+\(self`, limit));
        expect(workers.lastRanOn).toBe("workers");
        if ("error" in found || "error" in expected) throw new Error("a search failed");
        const lines = (result: typeof found) => result.build((file, line, column, text) => `${file}:${line}:${column}:${text}`);
        expect(lines(found)).toEqual(lines(expected));
        expect(found.truncated).toBe(limit === 3);
        expect(lines(found)).toHaveLength(limit === 3 ? 3 : 15);
        await here.close();
      }
    } finally {
      await here.close();
      await workers.close();
    }
  });

  test("a pattern that backtracks badly is given up on the calling thread and runs on the workers", async () => {
    const engine = new TextSearchEngine(10_000);
    try {
      // Every filler line matches; then the line of spaces backtracks for hours.
      const found = await engine.search(await filesOf(dir), request(String.raw`^\s*\s*\s*\s*x`, 100_000));
      expect(engine.lastRanOn).toBe("workers");
      if ("error" in found) throw new Error(found.error);
      expect(found.build((file, line) => `${file}:${line}`)).toHaveLength(6 * 15_000 - 15);
    } finally {
      await engine.close();
    }
  });

  test("the time it had on the calling thread counts against the search's time limit", async () => {
    const engine = new TextSearchEngine(400);
    try {
      const started = performance.now();
      const found = await engine.search(await filesOf(dir), request(String.raw`^\s*\s*\s*\s*y`, 10));
      // Answered by its time limit (the calling thread's 300 ms and then another 400 ms on the workers, before).
      expect(found).toEqual({ error: expect.stringContaining("search stopped after 400 ms") });
      expect(performance.now() - started).toBeLessThan(650);
    } finally {
      await engine.close();
    }
  });
});
