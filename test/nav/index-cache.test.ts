import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DamagedCacheError } from "../../src/index.ts";
import { createNavTools, defaultIndexCacheDir } from "../../src/nav/index.ts";
import { buildFixtureRepo, type FixtureRepo } from "./fixture-repo.ts";

let repo: FixtureRepo;
let cacheDir: string;

beforeAll(async () => {
  repo = await buildFixtureRepo();
  cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-nav-cache-"));
});

afterAll(async () => {
  await repo?.remove();
  await fs.rm(cacheDir, { recursive: true, force: true });
});

describe("index cache across sessions", () => {
  test("a second session takes every file from the disk cache; a changed file alone is analysed again", async () => {
    const first = await createNavTools(repo.root, { cacheDir });
    const info = await first.info();
    const outline = await first.outline("lib/util.js");
    await first.close();
    expect(first.stats()).toEqual({ files: info.files, analyzed: info.files, fromCache: 0 });
    const cacheFiles = await fs.readdir(cacheDir);
    // Trigram filters, metadata and symbols, side by side, named by a hash of the root.
    expect(cacheFiles.sort()).toHaveLength(3);
    expect(cacheFiles[1]).toMatch(/^[0-9a-f]{20}\.json$/);
    expect(cacheFiles[0]).toBe(cacheFiles[1].replace(/\.json$/, ".grams"));
    expect(cacheFiles[2]).toBe(cacheFiles[1].replace(/\.json$/, ".symbols"));

    const second = await createNavTools(repo.root, { cacheDir });
    expect(await second.info()).toEqual(info);
    expect(await second.outline("lib/util.js")).toEqual(outline);
    expect(second.stats()).toEqual({ files: info.files, analyzed: 0, fromCache: info.files });
    await second.close();

    const file = path.join(repo.root, "lib", "util.js");
    await fs.appendFile(file, "\nexport function addedLater() {}\n");
    const later = new Date(Date.now() + 5000);
    await fs.utimes(file, later, later);
    const third = await createNavTools(repo.root, { cacheDir });
    expect(await third.read("lib/util.js#addedLater")).toMatchObject({ path: "lib/util.js", startLine: 22, endLine: 22 });
    await third.info();
    // lib/util.js changed; lib/alias.js is a symlink to it, so it changed too.
    expect(third.stats()).toEqual({ files: info.files, analyzed: 2, fromCache: info.files - 2 });
    await third.close();
  });

  test("a file changed during a session is re-read on its next use", async () => {
    const nav = await createNavTools(repo.root, { cacheDir: false });
    expect(await nav.read("go/server.go:1")).toMatchObject({ text: "package server" });
    // A search before the change must not leave the search worker on the old text.
    expect(await nav.search("package server")).toMatchObject({ matches: [{ path: "go/server.go", line: 1 }] });
    const file = path.join(repo.root, "go", "server.go");
    const original = await fs.readFile(file, "utf8");
    await fs.writeFile(file, original.replace("package server", "package renamed"));
    const later = new Date(Date.now() + 10_000);
    await fs.utimes(file, later, later);
    expect(await nav.read("go/server.go:1")).toMatchObject({ text: "package renamed" });
    expect(await nav.search("package renamed")).toMatchObject({ matches: [{ path: "go/server.go", line: 1 }] });
    await nav.close();
  });

  test("the default cache lives in the user's cache directory, not in the repository", () => {
    const dir = defaultIndexCacheDir();
    expect(path.isAbsolute(dir)).toBe(true);
    expect(dir.endsWith(path.join("rlmkit", "nav"))).toBe(true);
  });
});

describe("index cache integrity", () => {
  test("a symbols file that does not match its metadata is ignored, and the index is rebuilt", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-cache-pair-"));
    try {
      const first = await createNavTools(repo.root, { cacheDir: dir });
      const info = await first.info();
      await first.close();
      const symbolsFile = (await fs.readdir(dir)).find((name) => name.endsWith(".symbols"))!;
      await fs.appendFile(path.join(dir, symbolsFile), "[]\n");
      const second = await createNavTools(repo.root, { cacheDir: dir });
      expect(await second.info()).toEqual(info);
      expect(second.stats()).toEqual({ files: info.files, analyzed: info.files, fromCache: 0 });
      await second.close();
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  test("metadata whose symbol lengths do not add up to the symbols file is ignored, and the index is rebuilt", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-cache-lengths-"));
    try {
      const first = await createNavTools(repo.root, { cacheDir: dir });
      const info = await first.info();
      await first.close();
      const metadataFile = path.join(dir, (await fs.readdir(dir)).find((name) => name.endsWith(".json"))!);
      const contents = JSON.parse(await fs.readFile(metadataFile, "utf8")) as { files: { symbolsLength: number }[] };
      contents.files[0]!.symbolsLength += 5;
      await fs.writeFile(metadataFile, JSON.stringify(contents));
      const second = await createNavTools(repo.root, { cacheDir: dir });
      try {
        expect(await second.info()).toEqual(info);
        expect(second.stats()).toEqual({ files: info.files, analyzed: info.files, fromCache: 0 });
      } finally {
        await second.close();
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  test("lengths that add up but cut the symbols in the wrong places are found when read, as a DamagedCacheError", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-cache-shifted-"));
    try {
      const first = await createNavTools(repo.root, { cacheDir: dir });
      await first.info();
      await first.close();
      const metadataFile = path.join(dir, (await fs.readdir(dir)).find((name) => name.endsWith(".json"))!);
      const contents = JSON.parse(await fs.readFile(metadataFile, "utf8")) as { files: { path: string; symbolsLength: number }[] };
      const [a, b] = contents.files.filter((file) => file.symbolsLength > 10);
      a!.symbolsLength += 3;
      b!.symbolsLength -= 3;
      await fs.writeFile(metadataFile, JSON.stringify(contents));
      const second = await createNavTools(repo.root, { cacheDir: dir });
      try {
        await expect(second.outline(a!.path)).rejects.toThrow(DamagedCacheError);
        await expect(second.outline(b!.path)).rejects.toThrow(/cache is damaged/);
      } finally {
        await second.close();
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
