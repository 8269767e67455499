import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNavTools } from "../../src/nav/index.ts";
import { analysisBatches } from "../../src/nav/index-workers.ts";
import { FIXTURE_SOURCE } from "./fixture-repo.ts";

let base: string;
let root: string;
let files: string[];

// Three copies of the fixture's sources: enough files (over 16) that a full build parses them on worker threads.
beforeAll(async () => {
  base = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-index-workers-"));
  root = path.join(base, "repo");
  for (const copy of ["a", "b", "c"]) await fs.cp(FIXTURE_SOURCE, path.join(root, copy), { recursive: true });
  files = [];
  for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.push(path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"));
  }
  files.sort();
});

afterAll(async () => {
  if (base) await fs.rm(base, { recursive: true, force: true });
});

describe("the index built on worker threads", () => {
  test("equals the index built one file at a time on the main thread", async () => {
    expect(files.length).toBeGreaterThanOrEqual(16);
    const parallel = await createNavTools(root, { cacheDir: false });
    const serial = await createNavTools(root, { cacheDir: false });
    try {
      // One file at a time: each outline analyses its file alone, before anything builds the whole index.
      const serialOutlines = [];
      for (const file of files) serialOutlines.push(await serial.outline(file));
      expect(serial.stats()).toMatchObject({ analyzed: files.length });

      const info = await parallel.info();
      expect(parallel.stats()).toMatchObject({ files: files.length, analyzed: files.length });
      expect(info.symbols).toBeGreaterThan(0);
      expect(await serial.info()).toEqual(info);
      const parallelOutlines = [];
      for (const file of files) parallelOutlines.push(await parallel.outline(file));
      expect(parallelOutlines).toEqual(serialOutlines);
    } finally {
      await parallel.close();
      await serial.close();
    }
  });

  test("is written to the disk cache and read back unchanged", async () => {
    const cacheDir = path.join(base, "cache");
    const first = await createNavTools(root, { cacheDir });
    const info = await first.info();
    const outline = await first.outline("b/py/models.py");
    await first.close();
    const second = await createNavTools(root, { cacheDir });
    try {
      expect(await second.info()).toEqual(info);
      expect(second.stats()).toMatchObject({ analyzed: 0, fromCache: files.length });
      expect(await second.outline("b/py/models.py")).toEqual(outline);
    } finally {
      await second.close();
    }
  });

  test("with a disk cache, the symbols wait in a spill file while the index is built, and no file is left behind", async () => {
    const cacheDir = path.join(base, "spill-cache");
    const reference = await createNavTools(root, { cacheDir: false });
    const spilled = await createNavTools(root, { cacheDir });
    try {
      await spilled.info();
      expect(spilled.stats()).toMatchObject({ analyzed: files.length });
      // The cache is written already; the symbols are read back from the spill as they are asked for.
      expect((await fs.readdir(cacheDir)).filter((name) => name.endsWith(".json"))).toHaveLength(1);
      for (const file of files) expect(await spilled.outline(file)).toEqual(await reference.outline(file));
      expect(await spilled.search("def ", { limit: 1000 })).toEqual(await reference.search("def ", { limit: 1000 }));
      if (process.platform === "linux") expect(await openFilesIn(cacheDir)).not.toEqual([]);
    } finally {
      await spilled.close();
      await reference.close();
    }
    // The cache's own files, one each, and no spill: besides them only the walk's kept listing, which is written when
    // the fixture's folders had not changed for LISTING_SETTLED_MS before the walk (on a slow machine they may not have).
    const kinds = (await fs.readdir(cacheDir)).map((name) => path.extname(name)).sort();
    expect(kinds.filter((kind) => kind !== ".list")).toEqual([".grams", ".json", ".spans", ".symbols", ".walk"]);
    expect(kinds.filter((kind) => kind === ".list").length).toBeLessThanOrEqual(1);
    // close() let go of the spill (removed as soon as it was opened, so only its descriptor showed it).
    if (process.platform === "linux") expect(await openFilesIn(cacheDir)).toEqual([]);
  });
});

// The files this process holds open in a directory, as Linux lists them (a removed one ends in " (deleted)").
async function openFilesIn(directory: string): Promise<string[]> {
  const open: string[] = [];
  for (const fd of await fs.readdir("/proc/self/fd")) {
    const target = await fs.readlink(`/proc/self/fd/${fd}`).catch(() => "");
    if (target.startsWith(directory + path.sep)) open.push(target);
  }
  return open;
}

describe("the batches handed to the index workers", () => {
  const task = (size: number, at: number) => ({ absolute: `/r/f${at}`, file: { path: `f${at}`, size, mtimeMs: 0, ctimeMs: 0, dev: 1, ino: at + 1 } });
  test.for([
    // A first search's few files to name (26 files, 888 KB): several batches per worker, not four of 256 KB.
    { label: "a few files, 2 workers", sizes: Array.from({ length: 26 }, (_, at) => (at === 25 ? 109_130 : 30_000)), workers: 2, atLeast: 6, small: true },
    { label: "a whole index, 2 workers", sizes: Array.from({ length: 2000 }, (_, at) => 5_000 + (at % 7) * 3_000), workers: 2, atLeast: 40 },
    { label: "tiny files: at most 64 a batch", sizes: Array.from({ length: 300 }, () => 10), workers: 8, atLeast: 5 },
    { label: "one file", sizes: [1_000_000], workers: 2, atLeast: 1 },
  ])("$label", ({ sizes, workers, atLeast, small = false }) => {
    const tasks = sizes.map(task);
    const batches = analysisBatches(tasks, workers);
    expect(batches.length).toBeGreaterThanOrEqual(atLeast);
    // Every task once.
    expect(batches.flat().sort((a, b) => a - b)).toEqual(sizes.map((_, at) => at));
    // At most 64 files and about 256 KiB (a file counts up to that) each, the largest first.
    const bytes = batches.map((batch) => batch.reduce((sum, at) => sum + Math.min(sizes[at]!, 256 * 1024), 0));
    for (const batch of batches) expect(batch.length).toBeLessThanOrEqual(64);
    for (let at = 1; at < bytes.length; at++) expect(bytes[at]).toBeLessThanOrEqual(bytes[at - 1]!);
    // A batch ends once it reaches its size: no batch holds more than its size plus one file.
    for (const [at, batch] of batches.entries()) expect(bytes[at]! - Math.min(sizes[batch.at(-1)!]!, 256 * 1024)).toBeLessThan(256 * 1024);
    // A small job: no batch much over a quarter of a worker's share (plus the file that ends it).
    if (small) {
      const share = sizes.reduce((sum, size) => sum + size, 0) / (workers * 4);
      for (const [at, batch] of batches.entries()) expect(bytes[at]! - sizes[batch.at(-1)!]!).toBeLessThan(share);
    }
  });
});
