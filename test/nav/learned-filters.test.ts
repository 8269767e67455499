/**
 * A process that only searches (`rlmkit nav search`) analyses the files with
 * matches alone; the others it reads leave a trigram filter in the index and its
 * disk cache, so the next process's first search reads only the files that may
 * hold its literal.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { ReadRule } from "../../src/access/read-rule.ts";
import { createNavTools, DEFAULT_MAX_FILE_BYTES, type NavSearchOptions } from "../../src/nav/index.ts";
import { indexCacheFile, readIndexCache, type IndexCache } from "../../src/nav/index-cache.ts";
import { RepositoryIndex } from "../../src/nav/repo-index.ts";
import { literalTrigrams } from "../../src/nav/trigram-filter.ts";
import type { TrigramTest } from "../../src/nav/index-filters.ts";
import { nativeAddon } from "../../src/nav/native-addon.ts";
import { searchNatively } from "../../src/nav/native-first-search.ts";
import { scanPlan } from "../../src/nav/text-scan.ts";

let dir: string;
let cacheDir: string;

beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-learned-filters-")));
  cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-learned-filters-cache-"));
  for (let index = 0; index < 24; index++) {
    const word = index === 5 ? "zebra" : "alpha";
    await fs.writeFile(path.join(dir, `m${index}.py`), `def f${index}():\n    return "${word} number ${index}"\n`);
  }
  await fs.writeFile(path.join(dir, "blob.bin"), Buffer.from([1, 0, 2, 0, ...Buffer.from("zebra")]));
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
  await fs.rm(cacheDir, { recursive: true, force: true });
});

// One process that runs one search and closes, as `rlmkit nav search` does.
async function searchOnce(query: string, options: NavSearchOptions): Promise<void> {
  const nav = await createNavTools(dir, { cacheDir, searchTimeoutMs: 10_000 });
  try {
    expect(await nav.search(query, options)).not.toHaveProperty("error");
  } finally {
    await nav.close();
  }
}

// What the disk cache holds now, as `look` sees it.
async function inCache<T>(look: (cache: IndexCache) => T): Promise<T> {
  const cache = await readIndexCache(indexCacheFile(cacheDir, dir), DEFAULT_MAX_FILE_BYTES);
  try {
    return look(cache);
  } finally {
    cache.close();
  }
}

// The files the next process's first search for `literal` would read, by the index's filters.
async function filesRead(literal: string): Promise<string[]> {
  const index = new RepositoryIndex(dir, { cacheDir, maxFileBytes: DEFAULT_MAX_FILE_BYTES, readRule: new ReadRule(dir) });
  try {
    const holds = await index.trigramTest(literalTrigrams(literal, true)!);
    return index.files().filter(holds).map((file) => file.path);
  } finally {
    await index.close();
  }
}

describe("filters a search leaves for the next process", () => {
  test.for<[string, string, NavSearchOptions]>([
    ["a literal search on the calling thread", "number 1", { caseSensitive: true }],
    ["a regular expression on the calling thread", String.raw`num\w+ 1`, { regex: true }],
    // A repeated group holding a repetition runs on the workers' linear-time engine.
    ["a regular expression on the workers", String.raw`(?:num\w+)+ 1`, { regex: true }],
  ])("%s: every file it read gets one; the binary file is known as binary", async ([, query, options]) => {
    expect(await filesRead("zebra")).toHaveLength(25);
    await searchOnce(query, options);
    // Files with matches were analysed (records); every other file has a filter of its own.
    expect(await inCache((cache) => cache.records.size + cache.filters.size)).toBe(25);
    const blob = await inCache((cache) => {
      const filter = cache.filters.get("blob.bin");
      return filter && { binary: filter.binary, grams: filter.grams };
    });
    expect(blob).toEqual({ binary: true, grams: undefined });
    expect(await filesRead("zebra")).toEqual(["m5.py"]);
  });

  test("a first search after a search-only process finds what a fresh index finds, and reads an edited file again", async () => {
    await searchOnce("number 1", { caseSensitive: true });
    // Ruled out by its filter until the edit changes its size, mtime and ctime.
    await fs.appendFile(path.join(dir, "m9.py"), "# zebra too\n");
    const nav = await createNavTools(dir, { cacheDir, searchTimeoutMs: 10_000 });
    const fresh = await createNavTools(dir, { cacheDir: false, searchTimeoutMs: 10_000 });
    try {
      const found = await nav.search("zebra", { caseSensitive: true });
      expect(found).toMatchObject({ matches: [{ path: "m5.py" }, { path: "m9.py" }] });
      expect(found).toEqual(await fresh.search("zebra", { caseSensitive: true }));
    } finally {
      await nav.close();
      await fresh.close();
    }
  });

  test.skipIf(!nativeAddon())("a first search on the cache's list reads only the files whose filters may hold it, the addon testing them as this thread does", async () => {
    await searchOnce("number 1", { caseSensitive: true });
    const index = new RepositoryIndex(dir, { cacheDir, maxFileBytes: DEFAULT_MAX_FILE_BYTES, readRule: new ReadRule(dir) });
    try {
      const listed = await index.cachedSearchFiles();
      const holds = await index.trigramTest(literalTrigrams("zebra", true)!);
      // Before any walk the disk cache's entries are judged by their filters alone: the addon may test them.
      expect(holds.trigrams).toBeDefined();
      const request = { root: dir, query: "zebra", regex: false, caseSensitive: true, limit: 100, maxFileBytes: DEFAULT_MAX_FILE_BYTES };
      // What the scan is given as its filters (its 13th argument).
      const addon = nativeAddon()!;
      const scan = addon.scan;
      const given: unknown[] = [];
      const run = async (mayHoldFile: TrigramTest) => {
        addon.scan = (...args: Parameters<typeof scan>) => (given.push(args[12]), scan.apply(addon, args));
        try {
          return await searchNatively(listed!.files, request, scanPlan("zebra", true, undefined, undefined), "zebra", { stop: () => undefined, deadline: Date.now() + 10_000, patternBudgetMs: 300, mayHoldFile });
        } finally {
          addon.scan = scan;
        }
      };
      const byAddon = await run(holds);
      // The same test without its trigrams: this thread tests every filter.
      const byThisThread = await run((file) => holds(file));
      // The addon was handed the filter file still open, and the trigrams; then nothing.
      expect(given).toEqual([expect.objectContaining({ fd: expect.any(Number), trigrams: holds.trigrams }), undefined]);
      const plain = (matches: Awaited<ReturnType<typeof run>>) => matches && { searched: matches.searchedFiles, rows: matches.build((file, line, column, text) => ({ file, line, column, text })) };
      expect(plain(byAddon)).toEqual({ searched: 1, rows: [{ file: "m5.py", line: 2, column: 13, text: '    return "zebra number 5"' }] });
      expect(plain(byThisThread)).toEqual(plain(byAddon));
    } finally {
      await index.close();
    }
  });

  test("a search that starts on the cache's file list learns the files the walk adds", async () => {
    // On the workers (a repeated group holding a repetition), which start on the cached list while the walk runs.
    const pattern = String.raw`(?:num\w+)+ 1`;
    await searchOnce(pattern, { regex: true });
    await fs.writeFile(path.join(dir, "new.py"), 'x = "alpha number 99"\n');
    // Starts on the cached list, then runs again over the walked files, the new one among them.
    await searchOnce(pattern, { regex: true });
    expect(await inCache((cache) => cache.filters.has("new.py"))).toBe(true);
    expect(await filesRead("zebra")).toEqual(["m5.py"]);
  });

  test("a process that analysed every file keeps records only", async () => {
    const nav = await createNavTools(dir, { cacheDir, searchTimeoutMs: 10_000 });
    try {
      await nav.info();
      expect(await nav.search("number", { caseSensitive: true })).not.toHaveProperty("error");
    } finally {
      await nav.close();
    }
    expect(await inCache((cache) => [cache.records.size, cache.filters.size])).toEqual([25, 0]);
  });

  test("a filter of a file that was analysed later gives way to its record", async () => {
    await searchOnce("number 1", { caseSensitive: true });
    const nav = await createNavTools(dir, { cacheDir, searchTimeoutMs: 10_000 });
    try {
      await nav.info();
    } finally {
      await nav.close();
    }
    expect(await inCache((cache) => [cache.records.size, cache.filters.size])).toEqual([25, 0]);
    expect(await filesRead("zebra")).toEqual(["m5.py"]);
  });
});
