/**
 * The walk hint kept beside the disk cache: which folders a second thread walks, so that a
 * new process starts it before reading the cache. A hint only shares the work: whatever it
 * says, and whatever changed since it was written, the walk lists what a walk on one thread lists.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { ReadRule } from "../../src/access/read-rule.ts";
import { DEFAULT_MAX_FILE_BYTES } from "../../src/nav/index.ts";
import { indexCacheFile } from "../../src/nav/index-cache.ts";
import { startWalkHelper } from "../../src/nav/parallel-walk.ts";
import { RepositoryIndex } from "../../src/nav/repo-index.ts";
import { walkRepository } from "../../src/nav/repo-walk.ts";
import { hintFolders, parseWalkHint, walkHintFileOf, writeWalkHint } from "../../src/nav/walk-hint.ts";

// The folders of the hint in `file`, as the index store reads them.
const readWalkHint = (file: string, minFiles: number) => hintFolders(parseWalkHint(file), minFiles);
import { FirstWalk } from "../../src/nav/walk-state.ts";
import { writeUnder } from "./fixture-repo.ts";

// Every thread a walk starts, with its folders (the FirstWalk tests start theirs through it too).
const helperStarts = vi.hoisted(() => [] as string[][]);
vi.mock("../../src/nav/parallel-walk.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/nav/parallel-walk.ts")>();
  return {
    ...original,
    startWalkHelper: (...args: Parameters<typeof original.startWalkHelper>) => {
      helperStarts.push([...args[2]]);
      return original.startWalkHelper(...args);
    },
  };
});

let base: string;
let root: string;

const write = (relative: string, text?: string) => writeUnder(root, relative, text);

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-walk-hint-")));
  root = path.join(base, "repo");
  for (const folder of ["big/a", "big/b", "big/c", "small", "ignored"]) {
    for (let index = 0; index < 6; index++) await write(`${folder}/f${index}.py`);
  }
  await write("top.py");
  await write(".gitignore", "ignored/\n");
});

afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

describe("the hint file", () => {
  const paths = [...["a", "b", "c"].flatMap((folder) => Array.from({ length: 10 }, (_, index) => `${folder}/f${index}.py`)), "top.py"];

  test("keeps the folders of about the share of the files for a walk of enough files, and only the count for fewer", async () => {
    const file = path.join(base, "x.walk");
    await writeWalkHint(file, paths, paths.length, 10);
    const folders = readWalkHint(file, 10);
    expect(folders).toBeDefined();
    expect(folders!.length).toBeGreaterThan(0);
    expect(folders!.every((folder) => ["a", "b", "c"].includes(folder))).toBe(true);
    // Asked for more files than the walk listed: no hint.
    expect(readWalkHint(file, paths.length + 1)).toBeUndefined();
    await writeWalkHint(file, paths, paths.length, paths.length + 1);
    expect(parseWalkHint(file)).toEqual({ files: paths.length, folders: [] });
    expect(readWalkHint(file, 1)).toBeUndefined();
  });

  test.for([
    ["not JSON", "{"],
    ["another version", JSON.stringify({ version: 2, files: 100, folders: ["a"] })],
    ["no count", JSON.stringify({ version: 1, folders: ["a"] })],
    ["without its folders", JSON.stringify({ version: 1, files: 100 })],
    ["a folder that leaves the root", JSON.stringify({ version: 1, files: 100, folders: ["a", "../outside"] })],
    ["an absolute folder", JSON.stringify({ version: 1, files: 100, folders: ["/etc"] })],
    ["a folder that is not a string", JSON.stringify({ version: 1, files: 100, folders: [7] })],
  ])("is not used when it is %s", async ([, text]) => {
    const file = path.join(base, "x.walk");
    await fs.writeFile(file, text!);
    expect(readWalkHint(file, 1)).toBeUndefined();
  });
});

describe("a walk with a thread started ahead", () => {
  const single = () => walkRepository(root, new ReadRule(root)).files.map((file) => file.path);

  test("starts the thread before the walk, on the hint's folders, and lists what one thread lists after changes", async () => {
    const started: string[][] = [];
    const walk = new FirstWalk(root, new ReadRule(root), { startHelper: (at, secrets, folders) => (started.push([...folders]), startWalkHelper(at, secrets, folders)) });
    // Changed since the hint was written: a file added to one of its folders, another folder removed, one never there.
    await write("big/a/added.py");
    await fs.rm(path.join(root, "small"), { recursive: true });
    // Given as the walk hands folders out: each once, none inside another.
    walk.startAhead(() => ["big/a", "small", "gone", "big/a", "big/a/deeper"]);
    expect(started).toEqual([["big/a", "gone", "small"]]);
    const listed = [...walk.walk(undefined).files.keys()];
    expect(listed).toEqual(single());
    expect(listed).toContain("big/a/added.py");
    expect(listed.some((file) => file.startsWith("small/"))).toBe(false);
    // Once walked, nothing starts ahead again.
    walk.startAhead(() => ["big/b"]);
    expect(started).toHaveLength(1);
  });

  test("stops a thread started too long before the walk and walks without it", async () => {
    let stopped = 0;
    const walk = new FirstWalk(root, new ReadRule(root), {
      freshMs: 0,
      startHelper: (at, secrets, folders) => {
        const helper = startWalkHelper(at, secrets, folders);
        return { collect: () => expect.unreachable("a stale helper is not collected"), cancel: () => (stopped++, helper.cancel()) };
      },
    });
    walk.startAhead(() => ["big"]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect([...walk.walk(undefined).files.keys()]).toEqual(single());
    expect(stopped).toBe(1);
  });

  test("starts nothing without a hint, and a cancelled walk stops its thread", () => {
    let starts = 0;
    let stops = 0;
    const startHelper: typeof startWalkHelper = (at, secrets, folders) => {
      starts++;
      const helper = startWalkHelper(at, secrets, folders);
      return { collect: () => helper.collect(), cancel: () => (stops++, helper.cancel()) };
    };
    const none = new FirstWalk(root, new ReadRule(root), { startHelper });
    none.startAhead(() => undefined);
    expect(starts).toBe(0);
    const cancelled = new FirstWalk(root, new ReadRule(root), { startHelper });
    cancelled.startAhead(() => ["big"]);
    cancelled.cancel();
    expect([starts, stops]).toEqual([1, 1]);
  });
});

describe("the index", () => {
  const single = () => walkRepository(root, new ReadRule(root)).files.map((file) => file.path);

  test("writes a hint with its cache (its folders once the walk lists enough files), and a new process's walk starts a thread on it and finds the same files", async () => {
    const cacheDir = path.join(base, "cache");
    const open = (parallelWalkFromFiles?: number) => new RepositoryIndex(root, { cacheDir, maxFileBytes: DEFAULT_MAX_FILE_BYTES, readRule: new ReadRule(root), ...(parallelWalkFromFiles ? { parallelWalkFromFiles } : {}) });
    const hintFile = walkHintFileOf(indexCacheFile(cacheDir, root));
    const first = open(10);
    await first.records();
    await first.close();
    const hint = readWalkHint(hintFile, 10);
    expect(hint?.length).toBeGreaterThan(0);
    await write("big/b/added.py");
    await fs.rm(path.join(root, "big/c"), { recursive: true });
    const paths = async (index: RepositoryIndex) => {
      try {
        return (await index.records()).map((record) => record.path);
      } finally {
        await index.close();
      }
    };
    helperStarts.length = 0;
    const withHint = await paths(open(10));
    // The first thread is the hint's (a loaded machine could make it stale, and a second one start).
    expect(helperStarts[0]).toEqual(hint);
    expect(withHint).toEqual(single());
    expect(withHint).toContain("big/b/added.py");
    // A walk that comes before the cache is read (a first read of one file) starts the thread on the hint too.
    helperStarts.length = 0;
    const reader = open(10);
    expect((await reader.record("top.py"))?.path).toBe("top.py");
    await reader.close();
    expect(helperStarts[0]).toEqual(hint);
    // Written again by a process that shares the walk from more files than the repository holds: the count alone.
    const second = open(1_000);
    await write("big/b/another.py");
    await second.records();
    await second.close();
    expect(parseWalkHint(hintFile)).toEqual({ files: withHint.length + 1, folders: [] });
    expect(readWalkHint(hintFile, 10)).toBeUndefined();
  });
});
