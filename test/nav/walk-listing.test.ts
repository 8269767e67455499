/**
 * A walk's kept listing stands in for the walk only while nothing it depends on changed: for
 * each change below, the first walk of a new index lists exactly what a walk of the disk lists,
 * and lists no folder when only files' contents changed.
 */
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { ReadRule } from "../../src/access/read-rule.ts";
import { createNavTools } from "../../src/nav/index.ts";
import { walkRepository } from "../../src/nav/repo-walk.ts";
import { listingOf, readListing, replayListing, writeListing, type WalkListing } from "../../src/nav/walk-listing.ts";
import { FirstWalk, type ListingStore } from "../../src/nav/walk-state.ts";
import { writeUnder } from "./fixture-repo.ts";

// Short, so that the tests need not wait 2 s for their folders to settle; changes come after waiting longer.
const SETTLED_MS = 40;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let base: string;
let root: string;
const write = (relative: string, text?: string) => writeUnder(root, relative, text);

beforeEach(async () => {
  base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), "rlmkit-walk-listing-")));
  root = path.join(base, "repo");
  for (const folder of ["src/app", "src/lib", "docs"]) for (let index = 0; index < 3; index++) await write(`${folder}/f${index}.py`, `x = ${index}\n`);
  await write(".gitignore", "*.log\nbuild/\n");
  await write("src/lib/.gitignore", "generated.py\n");
  await write("src/lib/generated.py");
  await write("src/app/run.log");
  await write("build/out.py");
  await write("config/.env", "SECRET=1\n");
  await fsp.mkdir(path.join(root, "empty"));
  await fsp.mkdir(path.join(root, ".git", "info"), { recursive: true });
  await fsp.mkdir(path.join(base, "outside"));
  await fsp.writeFile(path.join(base, "outside", "o.py"), "o\n");
  await fsp.symlink(path.join(root, "docs", "f0.py"), path.join(root, "src", "doc-link.py"));
  await fsp.symlink(path.join(base, "outside", "o.py"), path.join(root, "src", "outside-link.py"));
});

afterEach(async () => {
  vi.restoreAllMocks();
  await fsp.rm(base, { recursive: true, force: true });
});

class MemoryListings implements ListingStore {
  kept: WalkListing | undefined;
  writes = 0;
  read(): WalkListing | undefined {
    return this.kept;
  }
  write(make: () => WalkListing | undefined): void {
    const listing = make();
    if (!listing) return;
    this.kept = listing;
    this.writes++;
  }
}

const firstWalk = (store: ListingStore, rule = new ReadRule(root)) => new FirstWalk(root, rule, { listing: store, settledMs: SETTLED_MS }).walk(undefined);
const onDisk = () => walkRepository(root, new ReadRule(root));
const listed = (state: ReturnType<typeof firstWalk>) => ({ files: state.files.list(), outsideLinks: [...state.outsideLinks] });

// A listing kept by a walk made once the repository settled.
async function keptListing(): Promise<MemoryListings> {
  await sleep(SETTLED_MS * 3);
  const store = new MemoryListings();
  firstWalk(store);
  expect(store.writes).toBe(1);
  // Changes come later than a tick of the file system's clock after the walk.
  await sleep(20);
  return store;
}

describe("a kept listing", () => {
  const changes: { name: string; change: () => Promise<unknown>; listsFolders: boolean }[] = [
    { name: "nothing changed", change: async () => undefined, listsFolders: false },
    { name: "a file's contents changed (its new size and times are listed)", change: () => fsp.appendFile(path.join(root, "src/app/f1.py"), "y = 2\n"), listsFolders: false },
    { name: "a symlinked file's target changed", change: () => fsp.appendFile(path.join(root, "docs/f0.py"), "z = 3\n"), listsFolders: false },
    { name: "a file was added to a folder", change: () => write("src/lib/new.py"), listsFolders: true },
    { name: "a file was added to an empty folder", change: () => write("empty/first.py"), listsFolders: true },
    { name: "a file was removed", change: () => fsp.rm(path.join(root, "docs/f2.py")), listsFolders: true },
    { name: "a file was renamed", change: () => fsp.rename(path.join(root, "docs/f1.py"), path.join(root, "docs/renamed.py")), listsFolders: true },
    { name: "a folder was added", change: () => write("src/app/deeper/d.py"), listsFolders: true },
    { name: "a folder was replaced by a file", change: async () => (await fsp.rm(path.join(root, "empty"), { recursive: true }), write("empty", "now a file\n")), listsFolders: true },
    { name: "a nested .gitignore was edited in place", change: () => fsp.writeFile(path.join(root, "src/lib/.gitignore"), "f0.py\n"), listsFolders: true },
    { name: "the root .gitignore was edited in place", change: () => fsp.writeFile(path.join(root, ".gitignore"), "*.log\n"), listsFolders: true },
    { name: "a .gitignore was added", change: () => write("docs/.gitignore", "f1.py\n"), listsFolders: true },
    { name: ".git/info/exclude was written", change: () => write(".git/info/exclude", "docs/\n"), listsFolders: true },
    { name: "a symlink was pointed elsewhere", change: async () => (await fsp.rm(path.join(root, "src/doc-link.py")), fsp.symlink(path.join(base, "outside", "o.py"), path.join(root, "src/doc-link.py"))), listsFolders: true },
    { name: "a folder was replaced by a symlink to it", change: async () => (await fsp.rename(path.join(root, "docs"), path.join(base, "docs-moved")), fsp.symlink(path.join(base, "docs-moved"), path.join(root, "docs"))), listsFolders: true },
    { name: "a symlink's target outside appeared inside", change: async () => (await fsp.rm(path.join(base, "outside"), { recursive: true }), fsp.symlink(path.join(root, "docs"), path.join(base, "outside"))), listsFolders: false },
  ];

  test.each(changes)("$name: the walk lists what is on disk", async ({ change, listsFolders }) => {
    const store = await keptListing();
    await change();
    const readdir = vi.spyOn(fs, "readdirSync");
    const state = firstWalk(store);
    const listedFolders = readdir.mock.calls.length > 0;
    const disk = onDisk();
    expect(listed(state)).toEqual({ files: disk.files, outsideLinks: disk.outsideLinks });
    expect(listedFolders).toBe(listsFolders);
  });

  test("is not used under other secret-file patterns", async () => {
    const store = await keptListing();
    const kept = store.kept!;
    const rule = new ReadRule(root, { secretFiles: ["*.py"] });
    expect(replayListing(root, kept, rule.secretFiles)).toBeUndefined();
    const state = firstWalk(store, rule);
    expect(state.files.list()).toEqual(walkRepository(root, new ReadRule(root, { secretFiles: ["*.py"] })).files);
    expect(state.files.list().some((file) => file.path === "config/.env")).toBe(true);
    // The walk under the new patterns is kept in its place.
    expect(store.writes).toBe(2);
    expect(store.kept!.secretFiles).toEqual(["*.py"]);
  });

  test("is not kept when a folder changed less than the settling time before the walk", async () => {
    await sleep(SETTLED_MS * 3);
    await write("src/app/just-now.py");
    const store = new MemoryListings();
    firstWalk(store);
    expect(store.writes).toBe(0);
    // Once it settled, a walk keeps it.
    await sleep(SETTLED_MS * 3);
    firstWalk(store);
    expect(store.writes).toBe(1);
  });

  test("never stands for a folder that is a symlink, even one forged with its target's times", async () => {
    await fsp.symlink(path.join(base, "outside"), path.join(root, "linked"));
    const store = await keptListing();
    const listing = store.kept!;
    const target = fs.statSync(path.join(base, "outside"));
    // `watched` holds the folders' stats, then their .gitignore files' (-1: none), then .git/info/exclude's.
    const folderCells = listing.folders.length * 3;
    const { watched } = listing;
    // "linked" joins the folders, with the stats of the folder it leads to, and its file joins the files.
    const forged: WalkListing = {
      ...listing,
      folders: [...listing.folders, "linked"],
      watched: [...watched.slice(0, folderCells), target.size, target.mtimeMs, target.ctimeMs, ...watched.slice(folderCells, 2 * folderCells), -1, 0, 0, ...watched.slice(2 * folderCells)],
      files: [...listing.files, "linked/o.py"],
    };
    expect(replayListing(root, forged, listing.secretFiles)).toBeUndefined();
    expect(replayListing(root, listing, listing.secretFiles)).toBeDefined();
  });

  test("is not kept when a folder could not be listed", async () => {
    await sleep(SETTLED_MS * 3);
    const walk = onDisk();
    walk.trace.complete = false;
    expect(listingOf(root, walk, new ReadRule(root).secretFiles, Date.now(), SETTLED_MS)).toBeUndefined();
  });

  test("is the same whichever thread walked which folder", async () => {
    await sleep(SETTLED_MS * 3);
    const startedAt = Date.now();
    const single = listingOf(root, walkRepository(root, new ReadRule(root)), [], startedAt, SETTLED_MS);
    const shared = listingOf(root, walkRepository(root, new ReadRule(root), ["src/app", "src/lib", "docs", "empty"]), [], startedAt, SETTLED_MS);
    expect(single).toBeDefined();
    expect(shared).toEqual(single);
  });
});

describe("a listing file", () => {
  test("round-trips, and a malformed one reads as none", async () => {
    await sleep(SETTLED_MS * 3);
    const listing = listingOf(root, onDisk(), [], Date.now(), SETTLED_MS)!;
    const file = path.join(base, "walk.list");
    await writeListing(file, listing);
    expect(readListing(file)).toEqual(listing);
    const broken: Record<string, unknown>[] = [
      { ...listing, version: 0 },
      { ...listing, version: 1, files: [...listing.files, 3] },
      { ...listing, version: 1, files: [...listing.files, "../escape.py"] },
      { ...listing, version: 1, links: ["/etc/passwd"] },
      { ...listing, version: 1, watched: listing.watched.slice(1) },
      // Not as a walk makes it: a file in a folder the walk did not list, a folder whose parent it did not.
      { ...listing, version: 1, files: [...listing.files, "unlisted/a.py"] },
      { ...listing, version: 1, folders: [...listing.folders, "x/y"], watched: [...listing.watched, 0, 0, 0, 0, 0, 0] },
    ];
    for (const value of broken) {
      await fsp.writeFile(file, JSON.stringify(value));
      expect(readListing(file)).toBeUndefined();
    }
    await fsp.writeFile(file, "{ not json");
    expect(readListing(file)).toBeUndefined();
    expect(readListing(path.join(base, "missing.list"))).toBeUndefined();
  });
});

describe("the navigation tools", () => {
  test("keep the listing beside the disk cache, and a new process's first walk uses it and sees a new file", async () => {
    const cacheDir = path.join(base, "cache");
    // The default settling time: the repository's folders must be older than 2 s.
    await sleep(2_100);
    const first = await createNavTools(root, { cacheDir });
    expect(await first.search("x = 1", { caseSensitive: true })).toMatchObject({ matches: [{ path: "docs/f1.py" }, { path: "src/app/f1.py" }, { path: "src/lib/f1.py" }] });
    await first.close();
    expect((await fsp.readdir(cacheDir)).filter((name) => name.endsWith(".list"))).toHaveLength(1);

    const readdir = vi.spyOn(fs, "readdirSync");
    const second = await createNavTools(root, { cacheDir });
    expect(await second.search("x = 1", { caseSensitive: true })).toMatchObject({ matches: [{ path: "docs/f1.py" }, { path: "src/app/f1.py" }, { path: "src/lib/f1.py" }] });
    await second.close();
    expect(readdir.mock.calls.filter(([folder]) => String(folder).startsWith(root))).toEqual([]);

    await write("src/lib/added.py", "x = 1\n");
    const third = await createNavTools(root, { cacheDir });
    const found = await third.search("x = 1", { caseSensitive: true });
    await third.close();
    expect(found).toMatchObject({ matches: [{ path: "docs/f1.py" }, { path: "src/app/f1.py" }, { path: "src/lib/added.py" }, { path: "src/lib/f1.py" }] });
  });
});
