/**
 * The first literal search of a process runs on the calling thread (the workers
 * hold no text yet); later ones run on the workers. Both must give the same lines.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ReadRule } from "../../src/access/read-rule.ts";
import { createNavTools, DEFAULT_MAX_FILE_BYTES, type NavSearchOptions, type NavTools } from "../../src/nav/index.ts";
import { RepositoryIndex } from "../../src/nav/repo-index.ts";
import { literalTrigrams } from "../../src/nav/trigram-filter.ts";
import { FIXTURE_SOURCE } from "./fixture-repo.ts";

let root: string;
let onWorkers: NavTools;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-first-search-"));
  await fs.cp(FIXTURE_SOURCE, root, { recursive: true });
  await fs.writeFile(path.join(root, "greek.txt"), ["ΟΔΥΣΣΕΥΣ", "οδυσσευς retry", "Odysseus RETRY", "σοφία\r", "no line feed at the end: retry"].join("\n"));
  // Bytes that are not UTF-8 (decoded as U+FFFD), a byte order mark, and a long line.
  await fs.writeFile(path.join(root, "odd.txt"), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("retry \xff\xfe here\n", "latin1"), Buffer.from(`${"x".repeat(500)} retry ${"y".repeat(500)}\n`)]));
  await fs.writeFile(path.join(root, "blob.bin"), Buffer.from([1, 0, 2, 0, ...Buffer.from("retry")]));
  await fs.writeFile(path.join(root, "empty.txt"), "");
  // A repeated group holding a repetition first: its search runs on the workers, which then hold the texts.
  onWorkers = await createNavTools(root, { cacheDir: false, searchTimeoutMs: 10_000 });
  expect(await onWorkers.search(String.raw`(?:r[e]\w*)+try`, { regex: true })).not.toHaveProperty("error");
});

afterAll(async () => {
  await onWorkers?.close();
  if (root) await fs.rm(root, { recursive: true, force: true });
});

describe("a first literal search, on the calling thread", () => {
  test.for<[string, NavSearchOptions]>([
    ["retry", {}],
    ["retry", { caseSensitive: true }],
    ["RETRY", { caseSensitive: true }],
    ["Retry", { caseSensitive: false, limit: 1000 }],
    ["σ", { caseSensitive: false }],
    ["Σ", { caseSensitive: true }],
    ["\uFFFD", { caseSensitive: true }],
    ["def ", { limit: 3 }],
    ["def ", { limit: 100_000, glob: "*.py" }],
    [" here", { caseSensitive: true }],
    ["import", { glob: "**/*.ts", limit: 100_000 }],
    ["no such text anywhere", {}],
  ])("finds what the workers find: %j %j", async ([query, options]) => {
    const first = await createNavTools(root, { cacheDir: false, searchTimeoutMs: 10_000 });
    try {
      const here = await first.search(query, options);
      expect(here).not.toHaveProperty("error");
      expect(here).toEqual(await onWorkers.search(query, options));
    } finally {
      await first.close();
    }
  });

  test("a later search of the same tools finds the same, from the texts the workers read meanwhile", async () => {
    const nav = await createNavTools(root, { cacheDir: false, searchTimeoutMs: 10_000 });
    try {
      const first = await nav.search("retry", { limit: 1000 });
      expect(first).toMatchObject({ matches: expect.arrayContaining([expect.objectContaining({ path: "greek.txt", line: 5 })]) });
      expect(await nav.search("retry", { limit: 1000 })).toEqual(first);
      expect(await nav.search("retry", { limit: 1000 })).toEqual(await onWorkers.search("retry", { limit: 1000 }));
    } finally {
      await nav.close();
    }
  });

  test("stops at the search time limit with an error value", async () => {
    const many = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-first-search-many-"));
    try {
      for (let index = 0; index < 3000; index++) await fs.writeFile(path.join(many, `f${index}.txt`), `line ${index}\n`);
      const slow = await createNavTools(many, { cacheDir: false, searchTimeoutMs: 1 });
      try {
        // Nothing matches, so every one of the 3,000 files is read: far more than 1 ms.
        expect(await slow.search("absent")).toEqual({ error: expect.stringContaining("search stopped after 1 ms without finishing") });
      } finally {
        await slow.close();
      }
    } finally {
      await fs.rm(many, { recursive: true, force: true });
    }
  });

  test("reads a file changed since the walk as it is now, and says so to the index", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-first-search-changed-"));
    try {
      await fs.writeFile(path.join(dir, "a.py"), "def old():\n    pass\n");
      const nav = await createNavTools(dir, { cacheDir: false, searchTimeoutMs: 10_000 });
      try {
        expect(await nav.ls("")).toMatchObject({ type: "dir" });
        await fs.writeFile(path.join(dir, "a.py"), "def renamed_and_longer():\n    return 1\n");
        expect(await nav.search("def ")).toEqual({ matches: [{ path: "a.py", line: 1, column: 1, text: "def renamed_and_longer():", symbol: "renamed_and_longer" }], truncated: false });
      } finally {
        await nav.close();
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe("a first literal search with the index's trigram filters (a disk cache)", () => {
  let cacheDir: string;

  beforeAll(async () => {
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-first-search-cache-"));
    const build = await createNavTools(root, { cacheDir });
    await build.info();
    await build.close();
  });

  afterAll(async () => {
    if (cacheDir) await fs.rm(cacheDir, { recursive: true, force: true });
  });

  test.for<[string, NavSearchOptions]>([
    ["retry", { limit: 1000 }],
    ["RETRY", { caseSensitive: true }],
    ["Retry", { caseSensitive: false, limit: 1000 }],
    ["σ", { caseSensitive: false }],
    ["def ", { limit: 100_000, glob: "*.py" }],
    ["no such text anywhere", {}],
    // Regular expressions: the filters take their required literal.
    [String.raw`retry\w*`, { regex: true, limit: 1000 }],
    [String.raw`class\s+Shape`, { regex: true, caseSensitive: true }],
    [String.raw`RETR[Y]`, { regex: true, caseSensitive: false, limit: 1000 }],
  ])("finds what the workers find: %j %j", async ([query, options]) => {
    const first = await createNavTools(root, { cacheDir, searchTimeoutMs: 10_000 });
    try {
      expect(await first.search(query, options)).toEqual(await onWorkers.search(query, options));
    } finally {
      await first.close();
    }
  });

  test("after a first search on the workers that read only some files, later searches find every file's lines", async () => {
    const nav = await createNavTools(root, { cacheDir, searchTimeoutMs: 10_000 });
    try {
      // Runs on the workers (a repeated group holding a repetition) with the files that may hold "Shape" only.
      expect(await nav.search(String.raw`(?:class\s+)+Shape`, { regex: true, caseSensitive: true })).toMatchObject({ matches: [{ path: "cpp/shape.cpp" }] });
      for (const [query, options] of [["retry", { limit: 1000 }], [String.raw`def\s+\w+`, { regex: true, limit: 1000 }]] as const) {
        expect(await nav.search(query, options)).toEqual(await onWorkers.search(query, options));
      }
    } finally {
      await nav.close();
    }
  });

  test("reads a file changed since its filter was made", async () => {
    const changed = path.join(root, "lib", "util.js");
    const before = await fs.readFile(changed);
    try {
      await fs.appendFile(changed, "// zebraquokka appended after the cache\n");
      const first = await createNavTools(root, { cacheDir, searchTimeoutMs: 10_000 });
      try {
        expect(await first.search("zebraquokka")).toMatchObject({ matches: [{ path: "lib/util.js" }] });
      } finally {
        await first.close();
      }
    } finally {
      await fs.writeFile(changed, before);
    }
  });

  test("a file edited after the index read it, in the same process, is read again", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-first-search-edited-"));
    try {
      for (let index = 0; index < 20; index++) await fs.writeFile(path.join(dir, `m${index}.py`), `def f${index}():\n    return ${index}\n`);
      const nav = await createNavTools(dir, { cacheDir: false, searchTimeoutMs: 10_000 });
      try {
        // Every file is analysed (and filtered) now; the edit comes after.
        await nav.info();
        await fs.appendFile(path.join(dir, "m7.py"), "# quokkazebra\n");
        expect(await nav.search("quokkazebra")).toMatchObject({ matches: [{ path: "m7.py", line: 3 }] });
      } finally {
        await nav.close();
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  test("a file rewritten with its old size and mtime is read again (its ctime moved)", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-first-search-same-size-"));
    const dirCache = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-first-search-same-size-cache-"));
    try {
      // A whole second, which utimes sets back exactly (as `cp -p`, `tar x` or `rsync -t` do).
      const second = 1_700_000_000;
      for (let index = 0; index < 20; index++) {
        await fs.writeFile(path.join(dir, `m${index}.py`), `def f${index}():\n    return "alpha"\n`);
        await fs.utimes(path.join(dir, `m${index}.py`), second, second);
      }
      const build = await createNavTools(dir, { cacheDir: dirCache });
      await build.info();
      await build.close();
      const target = path.join(dir, "m3.py");
      await fs.writeFile(target, (await fs.readFile(target, "utf8")).replace("alpha", "zebra"));
      await fs.utimes(target, second, second);
      expect((await fs.stat(target)).mtimeMs).toBe(second * 1000);
      // Two first searches of new processes, each before any tool updated the cache: a regular expression
      // on the workers (it starts there with the cache's file list, before the walk), and a literal.
      const early = await createNavTools(dir, { cacheDir: dirCache, searchTimeoutMs: 10_000 });
      try {
        expect(await early.search('(?:\\w+ )+"zebra"', { regex: true, caseSensitive: true })).toMatchObject({ matches: [{ path: "m3.py" }] });
      } finally {
        await fs.cp(path.join(dirCache), `${dirCache}-before`, { recursive: true });
        await early.close();
      }
      await fs.rm(dirCache, { recursive: true });
      await fs.rename(`${dirCache}-before`, dirCache);
      const nav = await createNavTools(dir, { cacheDir: dirCache, searchTimeoutMs: 10_000 });
      try {
        expect(await nav.search('"zebra"', { caseSensitive: true })).toMatchObject({ matches: [{ path: "m3.py" }] });
      } finally {
        await nav.close();
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
      await fs.rm(dirCache, { recursive: true, force: true });
      await fs.rm(`${dirCache}-before`, { recursive: true, force: true });
    }
  });

  test("cache files from two different writes are not taken for one cache", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-first-search-mixed-"));
    const dirCache = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-first-search-mixed-cache-"));
    try {
      // Files of equal sizes, so both writes' files have the same lengths; only their contents differ.
      for (let index = 0; index < 20; index++) await fs.writeFile(path.join(dir, `m${index}.py`), `x${index % 10} = "alpha"\n`);
      const first = await createNavTools(dir, { cacheDir: dirCache });
      await first.info();
      await first.close();
      const sideFiles = (await fs.readdir(dirCache)).filter((name) => !name.endsWith(".json"));
      const older = await Promise.all(sideFiles.map((name) => fs.readFile(path.join(dirCache, name))));
      await fs.writeFile(path.join(dir, "m4.py"), `x4 = "zebra"\n`);
      const second = await createNavTools(dir, { cacheDir: dirCache });
      await second.info();
      await second.close();
      // The second write's metadata (which matches the files) beside the first write's symbols and filters.
      await Promise.all(sideFiles.map((name, index) => fs.writeFile(path.join(dirCache, name), older[index]!)));
      const nav = await createNavTools(dir, { cacheDir: dirCache, searchTimeoutMs: 10_000 });
      try {
        expect(await nav.search("zebra")).toMatchObject({ matches: [{ path: "m4.py" }] });
        await nav.info();
        expect(nav.stats()).toMatchObject({ fromCache: 0 });
      } finally {
        await nav.close();
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
      await fs.rm(dirCache, { recursive: true, force: true });
    }
  });

  test("the filters rule out the files without the literal", async () => {
    const real = await fs.realpath(root);
    const index = new RepositoryIndex(real, { cacheDir, maxFileBytes: DEFAULT_MAX_FILE_BYTES, readRule: new ReadRule(real) });
    try {
      const holds = await index.trigramTest(literalTrigrams("class Shape", true)!);
      const files = index.files().filter((file) => !file.path.endsWith(".bin"));
      const kept = files.filter(holds).map((file) => file.path);
      expect(kept).toContain("cpp/shape.cpp");
      // Of a dozen source files, only those that hold the trigrams of "class Shape" are read.
      expect(kept.length).toBeLessThan(files.length / 2);
      // Walked now: the walk's times are those of an earlier moment; a file is stat'ed again before it is ruled out.
      const later = await index.trigramTest(literalTrigrams("class Shape", true)!);
      expect(files.filter(later).map((file) => file.path)).toEqual(kept);
      const ruledOut = files.find((file) => !kept.includes(file.path))!;
      await fs.appendFile(path.join(real, ruledOut.path), "\n");
      try {
        const afterEdit = await index.trigramTest(literalTrigrams("class Shape", true)!);
        expect(afterEdit(ruledOut)).toBe(true);
      } finally {
        await fs.truncate(path.join(real, ruledOut.path), ruledOut.size);
      }
    } finally {
      await index.close();
    }
  });
});
