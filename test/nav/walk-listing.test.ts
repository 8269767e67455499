/**
 * A walk's kept listing stands in for the walk only while nothing it depends on changed: for
 * each change below, the first walk of a new index lists exactly what a walk of the disk lists,
 * and lists no folder when only files' contents changed.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { ReadRule } from "../../src/access/read-rule.ts";
import { walkRepository } from "../../src/nav/repo-walk.ts";
import { listingOf, readListing, replayListing, writeListing, type KnownStats, type WalkListing } from "../../src/nav/walk-listing.ts";
import { FirstWalk, type ListingStore } from "../../src/nav/walk-state.ts";
import { writeUnder } from "./fixture-repo.ts";
import { makeListingRepo, SETTLED_MS, sleep } from "./listing-repo.ts";

let base: string;
let root: string;
const write = (relative: string, text?: string) => writeUnder(root, relative, text);

beforeEach(async () => {
  ({ base, root } = await makeListingRepo());
});

afterEach(async () => {
  vi.restoreAllMocks();
  await fsp.rm(base, { recursive: true, force: true });
});

class MemoryListings implements ListingStore {
  kept: WalkListing | undefined;
  writes = 0;
  #make: (() => WalkListing | undefined) | undefined;
  read(): WalkListing | undefined {
    return this.kept;
  }
  write(make: () => WalkListing | undefined): void {
    this.#make = make;
  }
  flush(): void {
    const listing = this.#make?.();
    this.#make = undefined;
    this.kept = listing;
    if (listing) this.writes++;
  }
}

function firstWalk(store: MemoryListings, rule = new ReadRule(root), settledMs = SETTLED_MS) {
  const state = new FirstWalk(root, rule, { listing: store, settledMs }).walk(undefined);
  store.flush();
  return state;
}
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
    {
      // As many entries as before (the folder's size stays) and its mtime as before: only its ctime tells.
      name: "a file was renamed and the folder's mtime set back",
      change: async () => {
        const folder = path.join(root, "src/app");
        const before = fs.statSync(folder);
        // touch copies the times to the nanosecond (fs.utimes takes them in seconds, as a float).
        const reference = path.join(base, "times");
        expect(spawnSync("touch", ["-r", folder, reference]).status).toBe(0);
        await fsp.rename(path.join(folder, "f2.py"), path.join(folder, "g2.py"));
        expect(spawnSync("touch", ["-m", "-r", reference, folder]).status).toBe(0);
        const after = fs.statSync(folder);
        expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
      },
      listsFolders: true,
    },
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

  test("takes the stats of the files a search stated, and states the others itself", async () => {
    const store = await keptListing();
    await fsp.appendFile(path.join(root, "src/app/f1.py"), "y = 2\n");
    const disk = onDisk();
    const walk = (known: KnownStats) => new FirstWalk(root, new ReadRule(root), { listing: store, settledMs: SETTLED_MS }).walk(undefined, known);
    // Stated as the search found them, every file but one: what is on disk.
    const given = disk.files.filter((file) => file.path !== "docs/f2.py");
    const stats = given.map((file) => ({ kind: "file" as const, size: file.size, mtimeMs: file.mtimeMs, ctimeMs: file.ctimeMs, dev: file.dev, ino: file.ino }));
    expect(listed(walk({ files: given, stats }))).toEqual({ files: disk.files, outsideLinks: disk.outsideLinks });
    // A file's stat as the search found it is the walk's (the file's changes after it are the next search's to see).
    const first = disk.files[0]!;
    const seen = walk({ files: [first], stats: [{ kind: "file", size: 12_345, mtimeMs: 1, ctimeMs: 2, dev: 3, ino: 4 }] }).files.get(first.path);
    expect(seen).toEqual({ path: first.path, size: 12_345, mtimeMs: 1, ctimeMs: 2, dev: 3, ino: 4 });
    // A file the search found to be no regular file makes the listing one not to trust.
    const folders = vi.spyOn(fs, "readdirSync");
    walk({ files: [first], stats: [{ kind: "symlink", size: 1, mtimeMs: 1, ctimeMs: 1, dev: 1, ino: 1 }] });
    expect(folders).toHaveBeenCalled();
  });

  test("is not used under another version of the read rule's code", async () => {
    const store = await keptListing();
    expect(store.kept!.rules).toMatch(/^\d+\/ignore@\d+\.\d+\.\d+\/picomatch@\d+\.\d+\.\d+#[0-9a-f]{16}$/);
    expect(replayListing(root, { ...store.kept!, rules: "0/ignore@0.0.0" }, new ReadRule(root))).toBeUndefined();
    expect(replayListing(root, store.kept!, new ReadRule(root))).toBeDefined();
  });

  test("is not used after git's global excludes file changed (it lies outside the root, where nothing is watched)", async () => {
    const config = path.join(base, "xdg-config");
    fs.mkdirSync(path.join(config, "git"), { recursive: true });
    const before = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = config;
    try {
      const store = await keptListing();
      expect(replayListing(root, store.kept!, new ReadRule(root))).toBeDefined();
      fs.writeFileSync(path.join(config, "git", "ignore"), "*.py\n");
      expect(replayListing(root, store.kept!, new ReadRule(root))).toBeUndefined();
      // The walk made under it leaves the files it ignores out.
      const rule = new ReadRule(root);
      const walk = walkRepository(root, rule);
      expect(walk.files.some((file) => file.path.endsWith(".py"))).toBe(false);
      // A listing records the file as the walk's rule read it, not as it is when the listing is written.
      fs.writeFileSync(path.join(config, "git", "ignore"), "*.md\n");
      const written = listingOf(root, walk, rule, Date.now() + 60_000, 0)!;
      expect(replayListing(root, written, new ReadRule(root))).toBeUndefined();
      fs.writeFileSync(path.join(config, "git", "ignore"), "*.py\n");
      expect(replayListing(root, written, new ReadRule(root))).toBeDefined();
    } finally {
      if (before === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = before;
    }
  });

  test("is not used under other secret-file patterns", async () => {
    const store = await keptListing();
    const kept = store.kept!;
    const rule = new ReadRule(root, { secretFiles: ["*.py"] });
    expect(replayListing(root, kept, rule)).toBeUndefined();
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
    // A settling time no slow machine can outlast between the change and the walk.
    firstWalk(store, new ReadRule(root), 60_000);
    expect(store.writes).toBe(0);
    // Once it settled, a walk keeps it.
    await sleep(SETTLED_MS * 3);
    firstWalk(store);
    expect(store.writes).toBe(1);
  });

  test("is not kept from a walk under a rule that read the ignore files before they changed", async () => {
    const rule = new ReadRule(root);
    // The rule reads the root's .gitignore now, and keeps it.
    expect(rule.refusal("docs/f1.py")).toBeUndefined();
    await write(".gitignore", "*.log\nbuild/\ndocs/\n");
    await sleep(SETTLED_MS * 3);
    const store = new MemoryListings();
    // The walk lists docs/ under the rule as it was read; that is not kept for the next process.
    expect(firstWalk(store, rule).files.list().some((file) => file.path.startsWith("docs/"))).toBe(true);
    expect(store.writes).toBe(0);
    // A rule that reads the files afresh makes a walk that is kept, and that lists what is on disk.
    const state = firstWalk(store);
    expect(store.writes).toBe(1);
    expect(state.files.list()).toEqual(onDisk().files);
    expect(state.files.list().some((file) => file.path.startsWith("docs/"))).toBe(false);
  });

  test("is not kept when .git/info/exclude went away after the walk read it", async () => {
    await write(".git/info/exclude", "docs/\n");
    await sleep(SETTLED_MS * 3);
    const store = new MemoryListings();
    new FirstWalk(root, new ReadRule(root), { listing: store, settledMs: SETTLED_MS }).walk(undefined);
    await fsp.rm(path.join(root, ".git/info/exclude"));
    store.flush();
    expect(store.writes).toBe(0);
  });

  test("is not kept when .git/info went away, with its exclude, after the walk read it", async () => {
    await write(".git/info/exclude", "docs/\n");
    await sleep(SETTLED_MS * 3);
    const store = new MemoryListings();
    new FirstWalk(root, new ReadRule(root), { listing: store, settledMs: SETTLED_MS }).walk(undefined);
    await fsp.rm(path.join(root, ".git/info"), { recursive: true });
    store.flush();
    expect(store.writes).toBe(0);
  });

  test("is not kept when a folder changed after the walk read it, even with the file system's clock behind", async () => {
    await sleep(SETTLED_MS * 3);
    // The folders' times are 5 s behind this process's clock (a file server's clock, say): they all look settled.
    const now = Date.now.bind(Date);
    vi.spyOn(Date, "now").mockImplementation(() => now() + 5_000);
    const store = new MemoryListings();
    new FirstWalk(root, new ReadRule(root), { listing: store, settledMs: SETTLED_MS }).walk(undefined);
    await write("src/app/during.py");
    store.flush();
    expect(store.writes).toBe(0);
  });

  test("is not kept when a .gitignore is a symlink (its target's changes show in no folder)", async () => {
    await fsp.rename(path.join(root, "src/lib/.gitignore"), path.join(base, "lib-ignore"));
    await fsp.symlink(path.join(base, "lib-ignore"), path.join(root, "src/lib/.gitignore"));
    await sleep(SETTLED_MS * 3);
    const store = new MemoryListings();
    firstWalk(store);
    expect(store.writes).toBe(0);
  });

  test("that does not hold is dropped when the walk leaves none in its place", async () => {
    const store = await keptListing();
    await write("src/app/new.py");
    firstWalk(store);
    expect(store.kept).toBeUndefined();
  });

  test("forged, lists no symlink as a folder or a file, and nothing in .git", async () => {
    await fsp.symlink(path.join(base, "outside"), path.join(root, "linked"));
    await fsp.symlink(path.join(base, "outside", "o.py"), path.join(root, "docs", "o-link.py"));
    await write(".git/config", "[core]\n");
    const store = await keptListing();
    const listing = store.kept!;
    const rule = new ReadRule(root);
    expect(replayListing(root, listing, rule)).toBeDefined();
    const target = fs.statSync(path.join(base, "outside"));
    // `watched` holds the folders' entries (kind, size, mtime, ctime), then their .gitignore files', then .git/info's and its exclude's.
    const cells = listing.folders.length * 4;
    const { watched } = listing;
    const withFolder = (folder: string, entry: number[]): WalkListing => ({
      ...listing,
      folders: [...listing.folders, folder].sort(),
      watched: [...watched.slice(0, cells), ...entry, ...watched.slice(cells, 2 * cells), 0, 0, 0, 0, ...watched.slice(2 * cells)],
    });
    const forged: [string, WalkListing][] = [
      // A symlinked folder, with the times of the folder it leads to, or said to be missing.
      ["a symlinked folder as a folder", { ...withFolder("linked", [2, target.size, target.mtimeMs, target.ctimeMs]), files: [...listing.files, "linked/o.py"].sort() }],
      ["a symlinked folder said to be missing", { ...withFolder("linked", [0, 0, 0, 0]), files: [...listing.files, "linked/o.py"].sort() }],
      ["a symlink listed as a file", { ...listing, files: [...listing.files, "docs/o-link.py"].sort() }],
    ];
    for (const [name, value] of forged) expect(replayListing(root, value, rule), name).toBeUndefined();
    // Read from its file, a listing naming anything in .git is not used at all.
    const file = path.join(base, "forged.list");
    await writeListing(file, { ...listing, folders: [...listing.folders, ".git"].sort(), watched: withFolder(".git", [2, 0, 0, 0]).watched });
    expect(readListing(file)).toBeUndefined();
    await writeListing(file, { ...listing, files: [...listing.files, ".git/config"].sort() });
    expect(readListing(file)).toBeUndefined();
    // Each list, with paths whose folder is listed (the root): only the test of the paths themselves refuses them.
    const named: [string, Partial<WalkListing>][] = [
      ["a file named .git (a worktree's)", { files: [...listing.files, ".git"].sort() }],
      ["a file named ..", { files: [...listing.files, ".."].sort() }],
      ["a file named .", { files: [...listing.files, "."].sort() }],
      ["a symlink named .git", { links: [...listing.links, ".git"].sort() }],
      ["a folder named .GIT", { folders: withFolder(".GIT", [2, 0, 0, 0]).folders, watched: withFolder(".GIT", [2, 0, 0, 0]).watched }],
      ["a folder named .git below the root", { folders: withFolder("docs/.git", [2, 0, 0, 0]).folders, watched: withFolder("docs/.git", [2, 0, 0, 0]).watched }],
      ["a file with an empty name", { files: [...listing.files, ""].sort() }],
      ["a file whose path ends in a slash", { files: [...listing.files, "docs/"].sort() }],
      ["a file whose path starts at the root of the file system", { files: [...listing.files, "/x.py"].sort() }],
      ["a symlink also listed as a file", { files: [...listing.files, "docs/o-link.py"].sort() }],
      // Names some file systems read as .git: HFS+ ignores U+200C, Windows gives .git the short name GIT~1.
      ["a file in a folder HFS+ reads as .git", { folders: withFolder(".g\u200Cit", [2, 0, 0, 0]).folders, watched: withFolder(".g\u200Cit", [2, 0, 0, 0]).watched, files: [...listing.files, ".g\u200Cit/config"].sort() }],
      ["a file in a folder Windows reads as .git", { folders: withFolder("GIT~1", [2, 0, 0, 0]).folders, watched: withFolder("GIT~1", [2, 0, 0, 0]).watched, files: [...listing.files, "GIT~1/config"].sort() }],
      ["a symlink also listed as a folder", { folders: withFolder("linked", [2, 0, 0, 0]).folders, watched: withFolder("linked", [2, 0, 0, 0]).watched }],
    ];
    expect(listing.links).toEqual(expect.arrayContaining(["docs/o-link.py", "linked"]));
    for (const [name, change] of named) {
      await writeListing(file, { ...listing, ...change });
      expect(readListing(file), name).toBeUndefined();
    }
  });

  test("is not kept when a folder could not be listed", async () => {
    await sleep(SETTLED_MS * 3);
    const walk = onDisk();
    walk.trace.complete = false;
    expect(listingOf(root, walk, new ReadRule(root), Date.now(), SETTLED_MS)).toBeUndefined();
  });

  test("is the same whichever thread walked which folder", async () => {
    await sleep(SETTLED_MS * 3);
    const startedAt = Date.now();
    const single = listingOf(root, walkRepository(root, new ReadRule(root)), new ReadRule(root, { secretFiles: [] }), startedAt, SETTLED_MS);
    const shared = listingOf(root, walkRepository(root, new ReadRule(root), ["src/app", "src/lib", "docs", "empty"]), new ReadRule(root, { secretFiles: [] }), startedAt, SETTLED_MS);
    expect(single).toBeDefined();
    expect(shared).toEqual(single);
  });
});
