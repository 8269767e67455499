/**
 * A walk's listing as the disk cache keeps it: the file round-trips, a malformed or forged one is
 * not used, and through the navigation tools a new process's first walk uses the listing and
 * still sees what changed.
 */
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { ReadRule } from "../../src/access/read-rule.ts";
import { createNavTools } from "../../src/nav/index.ts";
import { IndexStore } from "../../src/nav/index-store.ts";
import { walkRepository } from "../../src/nav/repo-walk.ts";
import { listingOf, readListing, writeListing } from "../../src/nav/walk-listing.ts";
import { writeUnder } from "./fixture-repo.ts";
import { makeListingRepo, SETTLED_MS, sleep } from "./listing-repo.ts";

let base: string;
let root: string;
const write = (relative: string, text?: string) => writeUnder(root, relative, text);
const onDisk = () => walkRepository(root, new ReadRule(root));

beforeEach(async () => {
  ({ base, root } = await makeListingRepo());
});

afterEach(async () => {
  vi.restoreAllMocks();
  await fsp.rm(base, { recursive: true, force: true });
});

describe("a listing file", () => {
  test("round-trips, and a malformed one reads as none", async () => {
    await sleep(SETTLED_MS * 3);
    const listing = listingOf(root, onDisk(), new ReadRule(root, { secretFiles: [] }), Date.now(), SETTLED_MS)!;
    const file = path.join(base, "walk.list");
    await writeListing(file, listing);
    expect(readListing(file)).toEqual(listing);
    const broken: Record<string, unknown>[] = [
      { ...listing, version: 2 },
      { ...listing, version: 3, files: 3 },
      { ...listing, version: 3, files: [...listing.files, "../escape.py"] },
      { ...listing, version: 3, links: ["/etc/passwd"] },
      { ...listing, version: 3, watched: listing.watched.slice(1) },
      // A folder said to be missing: a walk lists only folders that are there.
      { ...listing, version: 3, watched: [0, ...listing.watched.slice(1)] },
      // Out of order, or twice: a walk lists each file once, in path order.
      { ...listing, version: 3, files: [...listing.files].reverse() },
      { ...listing, version: 3, files: [...listing.files, listing.files.at(-1)] },
      // Not as a walk makes it: a file in a folder the walk did not list, a folder whose parent it did not.
      { ...listing, version: 3, files: [...listing.files, "unlisted/a.py"] },
      { ...listing, version: 3, folders: [...listing.folders, "x/y"], watched: [...listing.watched, 0, 0, 0, 0, 0, 0, 0, 0] },
    ];
    // As the file holds them: each list of paths joined by NUL.
    const asWritten = (value: Record<string, unknown>) => ({ ...value, ...Object.fromEntries(["folders", "files", "links"].map((key) => [key, Array.isArray(value[key]) ? (value[key] as unknown[]).join("\0") : value[key]])) });
    expect(asWritten({ ...listing, version: 3 })).toEqual(JSON.parse(await fsp.readFile(file, "utf8")));
    for (const value of broken) {
      await fsp.writeFile(file, JSON.stringify(asWritten(value)));
      expect(readListing(file), JSON.stringify(value).slice(0, 200)).toBeUndefined();
    }
    await fsp.writeFile(file, "{ not json");
    expect(readListing(file)).toBeUndefined();
    expect(readListing(path.join(base, "missing.list"))).toBeUndefined();
  });

  test("of a repository whose only folder is its root round-trips", async () => {
    const flat = path.join(base, "flat");
    await writeUnder(flat, "a.py", "x = 1\n");
    await writeUnder(flat, "b.py", "x = 2\n");
    await sleep(SETTLED_MS * 3);
    const listing = listingOf(flat, walkRepository(flat, new ReadRule(flat)), new ReadRule(flat, { secretFiles: [] }), Date.now(), SETTLED_MS)!;
    expect(listing.folders).toEqual([""]);
    const file = path.join(base, "flat.list");
    await writeListing(file, listing);
    expect(readListing(file)).toEqual(listing);
  });
});

describe("the navigation tools", () => {
  test("keep the listing beside the disk cache, and a new process's first walk uses it and sees a new file", async () => {
    const cacheDir = path.join(base, "cache");
    // The default settling time: the repository's folders must be older than 2 s.
    await sleep(2_100);
    // Turned off, no listing is kept.
    process.env.RLMKIT_WALK_LISTING = "0";
    try {
      const off = await createNavTools(root, { cacheDir });
      expect(await off.search("x = 1", { caseSensitive: true })).toMatchObject({ matches: [{ path: "docs/f1.py" }, { path: "src/app/f1.py" }, { path: "src/lib/f1.py" }] });
      await off.close();
    } finally {
      delete process.env.RLMKIT_WALK_LISTING;
    }
    expect((await fsp.readdir(cacheDir)).filter((name) => name.endsWith(".list"))).toEqual([]);
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


describe("the disk store", () => {
  test("starts no listing write once closed", async () => {
    const store = new IndexStore(path.join(base, "cache"), root, 1024 * 1024, [], 10_000);
    await store.close();
    let made = false;
    store.write(() => {
      made = true;
      return undefined;
    });
    await sleep(20);
    expect(made).toBe(false);
  });
});
