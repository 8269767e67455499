import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DamagedCacheError } from "../../src/index.ts";
import { createNavTools, defaultIndexCacheDir, type NavInfo, type NavTools } from "../../src/nav/index.ts";
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
    // Trigram filters, metadata, spans, symbols and the walk hint, side by side, named by a hash of the root; beside them
    // the walk's kept listing when the fixture's folders had not changed for LISTING_SETTLED_MS before the walk (on a
    // slow machine they may not have).
    const all = await fs.readdir(cacheDir);
    const cacheFiles = all.filter((name) => !name.endsWith(".list"));
    expect(all.length - cacheFiles.length).toBeLessThanOrEqual(1);
    expect(cacheFiles.sort()).toHaveLength(5);
    expect(cacheFiles[1]).toMatch(/^[0-9a-f]{20}\.json$/);
    expect(cacheFiles[0]).toBe(cacheFiles[1].replace(/\.json$/, ".grams"));
    expect(cacheFiles[2]).toBe(cacheFiles[1].replace(/\.json$/, ".spans"));
    expect(cacheFiles[3]).toBe(cacheFiles[1].replace(/\.json$/, ".symbols"));
    expect(cacheFiles[4]).toBe(cacheFiles[1].replace(/\.json$/, ".walk"));

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
  // The symbols file and the spans file (each line's length in the metadata).
  const PARTS = [
    [".symbols", "symbolsLength"],
    [".spans", "spansLength"],
  ] as const;

  type Metadata = { files: Record<string, unknown[]> & { path: string[] } };

  // A disk cache of the fixture repository in a new directory, edited by `damage`; then `check` runs on new tools over it.
  async function withDamagedCache(damage: (dir: string) => Promise<void>, check: (nav: NavTools, info: NavInfo) => Promise<void>): Promise<void> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-cache-damaged-"));
    try {
      const first = await createNavTools(repo.root, { cacheDir: dir });
      const info = await first.info();
      await first.close();
      await damage(dir);
      const second = await createNavTools(repo.root, { cacheDir: dir });
      try {
        await check(second, info);
      } finally {
        await second.close();
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  // Rewrites the cache's metadata file with what `edit` returns.
  async function editMetadata(dir: string, edit: (contents: Metadata) => unknown): Promise<void> {
    const metadataFile = path.join(dir, (await fs.readdir(dir)).find((name) => name.endsWith(".json"))!);
    const contents = JSON.parse(await fs.readFile(metadataFile, "utf8")) as Metadata;
    await fs.writeFile(metadataFile, JSON.stringify(edit(contents)));
  }

  // The cache was not trusted: every file was analysed again, and the tools answer as before.
  const rebuilt = async (nav: NavTools, info: NavInfo) => {
    expect(await nav.info()).toEqual(info);
    expect(nav.stats()).toEqual({ files: info.files, analyzed: info.files, fromCache: 0 });
  };

  test("metadata in the older form (one object per file) is ignored, and the index is rebuilt", async () => {
    const toRows = ({ files, ...rest }: Metadata) => {
      const names = Object.keys(files);
      return { ...rest, files: files.path.map((_, row) => Object.fromEntries(names.map((name) => [name, files[name]![row]]))) };
    };
    await withDamagedCache((dir) => editMetadata(dir, toRows), rebuilt);
  });

  test.for(PARTS)("a %s file that does not match its metadata is ignored, and the index is rebuilt", async ([extension]) => {
    const appendLine = async (dir: string) => fs.appendFile(path.join(dir, (await fs.readdir(dir)).find((name) => name.endsWith(extension))!), "[]\n");
    await withDamagedCache(appendLine, rebuilt);
  });

  test.for(PARTS)("metadata whose lengths do not add up to the %s file is ignored, and the index is rebuilt", async ([, lengthKey]) => {
    const lengthen = (contents: Metadata) => {
      (contents.files[lengthKey] as number[])[0]! += 5;
      return contents;
    };
    await withDamagedCache((dir) => editMetadata(dir, lengthen), rebuilt);
  });

  test.for(PARTS)("lengths that add up but cut the %s file in the wrong places are found when read, as a DamagedCacheError", async ([extension, lengthKey]) => {
    let cut: string[] = [];
    const shift = (contents: Metadata) => {
      const lengths = contents.files[lengthKey] as number[];
      const [a, b] = lengths.flatMap((length, row) => (length > 10 ? [row] : []));
      lengths[a!]! += 3;
      lengths[b!]! -= 3;
      cut = [contents.files.path[a!]!, contents.files.path[b!]!];
      return contents;
    };
    await withDamagedCache(
      (dir) => editMetadata(dir, shift),
      async (nav) => {
        // The symbols are read for an outline; the spans for a search's matches (the symbol around each line).
        const read = (file: string) => (extension === ".symbols" ? nav.outline(file) : nav.search(".", { regex: true, glob: file }));
        await expect(read(cut[0]!)).rejects.toThrow(DamagedCacheError);
        await expect(read(cut[1]!)).rejects.toThrow(/cache is damaged/);
      },
    );
  });
});
