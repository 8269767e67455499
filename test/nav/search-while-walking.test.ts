/**
 * Before its first walk, a search starts on the disk cache's file list: on the workers
 * while the repository is walked, or on the calling thread before it walks. What it finds
 * must be what a search of the walked files finds, whatever changed since the cache was written.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { ReadRule } from "../../src/access/read-rule.ts";
import { isCacheEntry } from "../../src/nav/cached-record.ts";
import { createNavTools, DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_READ_CHARS, type NavSearchOptions } from "../../src/nav/index.ts";
import { searchWhileWalking } from "../../src/nav/nav-search.ts";
import { TextSearchEngine, type SearchFile, type TextSearchRequest } from "../../src/nav/text-search.ts";
import { indexCacheFile } from "../../src/nav/index-cache.ts";
import { RepositoryIndex } from "../../src/nav/repo-index.ts";
import { walkHintFileOf } from "../../src/nav/walk-hint.ts";
import { FIXTURE_SOURCE } from "./fixture-repo.ts";

let base: string;
let root: string;
let cacheDir: string;

beforeEach(async () => {
  base = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-search-walking-"));
  root = path.join(base, "repo");
  cacheDir = path.join(base, "cache");
  await fs.cp(FIXTURE_SOURCE, root, { recursive: true });
  // A full index written to the cache: every file is in its list. The walk hint (written by a large
  // repository's walk) counts them, so a first search on the calling thread starts on the list too.
  const first = await createNavTools(root, { cacheDir });
  await first.info();
  const files = first.stats().files;
  await first.close();
  const real = await fs.realpath(root);
  await fs.writeFile(walkHintFileOf(indexCacheFile(cacheDir, real)), JSON.stringify({ version: 1, files, folders: ["py"] }));
});

afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

// A repeated group that holds a repetition runs on the workers' linear-time engine; the others run on
// the calling thread (a first search of a small repository). Both start on the cached list.
const QUERIES: [string, NavSearchOptions][] = [
  [String.raw`(?:def\s+)+\w+`, { regex: true, limit: 1000 }],
  [String.raw`(?:class\s+)+\w+`, { regex: true, limit: 3 }],
  [String.raw`(?:retr[y]\w*)+`, { regex: true, caseSensitive: false, limit: 1000 }],
  ["def ", { limit: 1000 }],
  ["retry", { caseSensitive: false, limit: 1000 }],
  [String.raw`class\s+\w+`, { regex: true, limit: 1000 }],
];

async function bothWays(query: string, options: NavSearchOptions): Promise<[unknown, unknown]> {
  const cached = await createNavTools(root, { cacheDir });
  const fresh = await createNavTools(root, { cacheDir: false });
  try {
    return [await cached.search(query, options), await fresh.search(query, options)];
  } finally {
    await cached.close();
    await fresh.close();
  }
}

describe("a first search started on the cached file list", () => {
  test.for(QUERIES)("finds what a search of the walked files finds, nothing having changed: %s %j", async ([query, options]) => {
    const [cached, fresh] = await bothWays(query, options);
    expect(cached).not.toHaveProperty("error");
    expect(cached).toEqual(fresh);
  });

  test.for(QUERIES)("finds the repository as it is after files were edited, added and deleted: %s %j", async ([query, options]) => {
    // Same size, new text: only the mtime tells.
    const edited = path.join(root, "py", "models.py");
    const text = await fs.readFile(edited, "utf8");
    expect(text).toMatch(/def /);
    await fs.writeFile(edited, text.replace(/def /, "fed "));
    await fs.utimes(edited, new Date(), new Date(Date.now() + 5000));
    await fs.rm(path.join(root, "cpp", "shape.cpp"));
    await fs.writeFile(path.join(root, "added.py"), "class Added:\n    def retry_added(self):\n        pass\n");
    const [cached, fresh] = await bothWays(query, options);
    expect(cached).not.toHaveProperty("error");
    expect(cached).toEqual(fresh);
  });

  test("the cache's file list is offered before the walk only, under the secret-file patterns it was written with", async () => {
    const real = await fs.realpath(root);
    const index = (secretFiles?: string[]) =>
      new RepositoryIndex(real, { cacheDir, maxFileBytes: DEFAULT_MAX_FILE_BYTES, readRule: new ReadRule(real, secretFiles ? { secretFiles } : {}) });
    const same = index();
    const other = index(["*.py"]);
    try {
      const listed = await same.cachedSearchFiles();
      expect(listed?.files.map((file) => [file.path, file.size, file.mtimeMs])).toEqual(same.files().map((file) => [file.path, file.size, file.mtimeMs]));
      // The walk hint (written above) counts as many files as the list has.
      expect(listed?.complete).toBe(true);
      // Walked now: the walk is what counts.
      expect(await same.cachedSearchFiles()).toBeUndefined();
      expect(await other.cachedSearchFiles()).toBeUndefined();
    } finally {
      await same.close();
      await other.close();
    }
  });

  test("on a complete list, a search on the calling thread starts before the walk, and after edits runs again there, with no background load before its answer", async () => {
    const real = await fs.realpath(root);
    await fs.writeFile(path.join(real, "added.py"), "def added_after_the_cache():\n    pass\n");
    const readRule = new ReadRule(real);
    const index = new RepositoryIndex(real, { cacheDir, maxFileBytes: DEFAULT_MAX_FILE_BYTES, readRule });
    const engine = new TextSearchEngine(10_000);
    const calls: { fromCache: boolean; loadAfter: boolean; ranOn?: string }[] = [];
    const search = engine.search.bind(engine);
    engine.search = async (files, request, mayHold, learn, options) => {
      const call: (typeof calls)[number] = { fromCache: files.length > 0 && files.every((file: SearchFile) => isCacheEntry(file)), loadAfter: options?.loadAfter ?? true };
      calls.push(call);
      const result = await search(files, request, mayHold, learn, options);
      call.ranOn = engine.lastRanOn;
      return result;
    };
    const context = { index, readRule, engine, maxFileBytes: DEFAULT_MAX_FILE_BYTES, maxReadChars: DEFAULT_MAX_READ_CHARS, searchFiles: () => index.searchFiles() };
    const request: TextSearchRequest = { root: real, query: "def ", regex: false, caseSensitive: true, limit: 10_000, maxFileBytes: DEFAULT_MAX_FILE_BYTES };
    try {
      const result = await searchWhileWalking(context, request);
      if ("error" in result) throw new Error(result.error);
      expect(result.files().map((file) => file.path)).toContain("added.py");
      // First on the cache's list, with no load after it; then, the walk having found a new file, on the walked
      // files, still on this thread: no background load ran in between to make the workers hold the texts.
      expect(calls).toEqual([
        { fromCache: true, loadAfter: false, ranOn: "calling thread" },
        { fromCache: false, loadAfter: true, ranOn: "calling thread" },
      ]);
    } finally {
      await engine.close();
      await index.close();
    }
  });

  test("the cache's list is complete when it has as many files as the walk written with it listed", async () => {
    const real = await fs.realpath(root);
    // A cache of its own, written by an index that shares the walk from one file, so it leaves a hint.
    const hinted = path.join(base, "cache-with-hint");
    const open = () => new RepositoryIndex(real, { cacheDir: hinted, maxFileBytes: DEFAULT_MAX_FILE_BYTES, readRule: new ReadRule(real), parallelWalkFromFiles: 1 });
    const first = open();
    await first.records();
    await first.close();
    const hintFile = walkHintFileOf(indexCacheFile(hinted, real));
    const hint = JSON.parse(await fs.readFile(hintFile, "utf8")) as { files: number };
    const listed = async () => {
      const index = open();
      try {
        return await index.cachedSearchFiles();
      } finally {
        await index.close();
      }
    };
    expect((await listed())?.complete).toBe(true);
    expect((await listed())?.files.length).toBe(hint.files);
    // The walk that wrote the hint listed a file the cache has no record or filter of (a process that only searched never read it).
    await fs.writeFile(hintFile, JSON.stringify({ ...hint, files: hint.files + 1 }));
    expect((await listed())?.complete).toBe(false);
  });

  test("a cache that names a path outside the root is not read from", async () => {
    const metadataFile = path.join(cacheDir, (await fs.readdir(cacheDir)).find((name) => name.endsWith(".json"))!);
    const contents = JSON.parse(await fs.readFile(metadataFile, "utf8")) as { files: { path: string[] } };
    contents.files.path[0] = "../outside.txt";
    await fs.writeFile(metadataFile, JSON.stringify(contents));
    const real = await fs.realpath(root);
    const index = new RepositoryIndex(real, { cacheDir, maxFileBytes: DEFAULT_MAX_FILE_BYTES, readRule: new ReadRule(real) });
    try {
      expect(await index.cachedSearchFiles()).toBeUndefined();
    } finally {
      await index.close();
    }
  });
});
