import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNavTools } from "../../src/nav/index.ts";
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
