/**
 * A walk that hands some folders to a second thread lists exactly what a walk on one
 * thread lists, whatever changed since the list the folders were chosen from.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { ReadRule, type ReadRuleOptions } from "../../src/access/read-rule.ts";
import { startWalkHelper } from "../../src/nav/parallel-walk.ts";
import { DEFAULT_MAX_FILE_BYTES } from "../../src/nav/index.ts";
import { RepositoryIndex } from "../../src/nav/repo-index.ts";
import { walkRepository } from "../../src/nav/repo-walk.ts";
import { splitWalk } from "../../src/nav/walk-split.ts";
import { writeUnder } from "./fixture-repo.ts";

let base: string;
let root: string;

const write = (relative: string, text?: string) => writeUnder(root, relative, text);

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-parallel-walk-")));
  root = path.join(base, "repo");
  for (const folder of ["big/a", "big/b", "big/c", "small", "ignored", "gone-soon", "linked-soon", "under/link-parent"]) {
    for (let index = 0; index < 5; index++) await write(`${folder}/f${index}.py`);
  }
  await write("top.py");
  await write(".gitignore", "ignored/\n*.log\n");
  await write("big/b/.gitignore", "skip-me.py\n");
  await write("big/b/skip-me.py");
  await write("big/a/notes.log");
  await write("big/c/.env", "SECRET=1\n");
  await fs.mkdir(path.join(base, "outside"));
  await fs.writeFile(path.join(base, "outside", "o.py"), "o\\n");
});

afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

const COMPARE = fileURLToPath(new URL("../support/walk-compare.ts", import.meta.url));
const AS_USER = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
const PERMISSIONS_APPLY = process.platform !== "win32" && spawnSync(process.execPath, ["-e", `require("fs").accessSync(${JSON.stringify(COMPARE)})`], AS_USER).status === 0;

const ALL_FOLDERS = ["big/a", "big/b", "big/c", "small", "ignored", "gone-soon", "linked-soon", "under/link-parent", "not-there"];

describe("a walk with a second thread", () => {
  test("lists what a walk on one thread lists, after folders were ignored, removed, replaced by symlinks and added", async () => {
    // Changes since the list the share was chosen from.
    await fs.rm(path.join(root, "gone-soon"), { recursive: true });
    await fs.rm(path.join(root, "linked-soon"), { recursive: true });
    await fs.symlink(path.join(base, "outside"), path.join(root, "linked-soon"));
    await fs.rename(path.join(root, "under"), path.join(base, "under-moved"));
    await fs.symlink(path.join(base, "under-moved"), path.join(root, "under"));
    await write("new-folder/n.py");
    const single = walkRepository(root, new ReadRule(root));
    const shared = walkRepository(root, new ReadRule(root), ALL_FOLDERS);
    expect(shared).toEqual(single);
    // The walk saw the rules: no ignored, secret or linked-through file, the symlink that leaves the root named.
    const paths = single.files.map((file) => file.path);
    expect(paths).toContain("big/b/f0.py");
    expect(paths).toContain("new-folder/n.py");
    expect(paths.filter((file) => /ignored|skip-me|\.log|\.env|linked-soon|under\/|gone-soon/.test(file))).toEqual([]);
    expect(single.outsideLinks).toContain("linked-soon");
  });

  test("the worker walks its folders and answers for each; whether one counts is the whole walk's to say", () => {
    const walked = startWalkHelper(root, new ReadRule(root).options, ["big/a", "small", "ignored", "not-there"]).collect();
    expect([...walked!.keys()]).toEqual(["big/a", "small"]);
    // big/a/notes.log is ignored by the root's .gitignore, which the worker read itself.
    expect(walked!.get("big/a")!.files.map((file) => file.path).sort()).toEqual([0, 1, 2, 3, 4].map((index) => `big/a/f${index}.py`));
    expect(walked!.get("small")!.files.every((file) => file.size === 2 && file.mtimeMs > 0 && file.ctimeMs > 0)).toBe(true);
  });

  test("the worker never walks through a symlink, even one to a folder inside the root", async () => {
    await fs.rename(path.join(root, "under"), path.join(root, "under-real"));
    await fs.symlink(path.join(root, "under-real"), path.join(root, "under"));
    expect([...startWalkHelper(root, { secretFiles: [] }, ["under/link-parent", "under-real/link-parent"]).collect()!.keys()]).toEqual(["under-real/link-parent"]);
  });

  test("only the folders the whole walk meets count: the worker's other answers are dropped, and a met folder it did not answer for is walked here", () => {
    const fake = (folder: string) => ({ files: [{ path: `${folder}/planted.py`, size: 1, mtimeMs: 1, ctimeMs: 1, dev: 1, ino: 1 }], outsideLinks: [`${folder}/planted-link`], trace: { folders: [folder], folderTimes: [0, 0, 0], links: [`${folder}/planted-link`], complete: true } });
    const answersWrongly = () => ({ collect: () => new Map([["ignored", fake("ignored")], ["not-there", fake("not-there")], ["big/../x", fake("big/../x")]]), cancel: () => undefined });
    expect(walkRepository(root, new ReadRule(root), ["small", "ignored", "not-there"], answersWrongly)).toEqual(walkRepository(root, new ReadRule(root)));
  });

  test("a worker's part with more folders than a call takes arguments is joined", () => {
    const many = Array.from({ length: 200_000 }, (_, index) => `small/d${index}`);
    const huge = () => ({ collect: () => new Map([["small", { files: [], outsideLinks: [], trace: { folders: many, folderTimes: many.flatMap(() => [0, 0, 0]), links: many, complete: true } }]]), cancel: () => undefined });
    const walked = walkRepository(root, new ReadRule(root), ["small"], huge);
    expect(walked.trace.folders.length).toBeGreaterThan(200_000);
    expect(walked.trace.folderTimes.length).toBe(walked.trace.folders.length * 3);
    expect(walked.trace.links.length).toBe(200_000);
  });

  test("a worker that never starts is given up within seconds, and the calling thread walks its folders", () => {
    const never = (rootDir: string, rule: ReadRuleOptions, folders: readonly string[]) => startWalkHelper(rootDir, rule, folders, new URL("./no-such-walk-worker.js", import.meta.url));
    const started = performance.now();
    expect(never(root, {}, ["small"]).collect()).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(walkRepository(root, new ReadRule(root), ["big", "small"], never)).toEqual(walkRepository(root, new ReadRule(root)));
  });

  // Needs a user that file permissions apply to: this one, or when it is root, "nobody", if it can read this checkout.
  test.skipIf(!PERMISSIONS_APPLY)("a folder whose parent can be entered but not listed stays unlisted (run as a user that permissions apply to)", async () => {
    await write("hidden/inner/s.py");
    await fs.chmod(path.join(root, "hidden"), 0o311);
    await fs.chmod(base, 0o755);
    const run = spawnSync(process.execPath, [COMPARE, root, "hidden/inner", "small"], { encoding: "utf8", timeout: 20_000, ...AS_USER });
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { same: boolean; single: string[]; shared: string[] };
    expect(report.shared).not.toContain("hidden/inner/s.py");
    expect(report.same).toBe(true);
  });

  // Folders that are not plain relative paths (from an edited cache, say), repeated or nested, and names that are files now.
  test.for([[["small"]], [["big/a", "big/c"]], [["big"]], [[""]], [["..", "../outside", "/etc", "big/../small", "big/"]], [["big", "big", "big/a", "small", "small/f0.py"]], [["top.py", ".gitignore"]]])(
    "lists the same with the share %j",
    async ([share]) => {
      expect(walkRepository(root, new ReadRule(root), share)).toEqual(walkRepository(root, new ReadRule(root)));
    },
  );
});

describe("the index", () => {
  test("walks with a second thread once its disk cache knows enough files, and finds the same files", async () => {
    const cacheDir = path.join(base, "cache");
    const open = (parallelWalkFromFiles?: number) => new RepositoryIndex(root, { cacheDir, maxFileBytes: DEFAULT_MAX_FILE_BYTES, readRule: new ReadRule(root), ...(parallelWalkFromFiles ? { parallelWalkFromFiles } : {}) });
    const first = open();
    const records = await first.records();
    await first.close();
    await write("big/a/added.py");
    await fs.rm(path.join(root, "small"), { recursive: true });
    const walked = async (index: RepositoryIndex) => {
      try {
        return (await index.records()).map((record) => [record.path, record.size]);
      } finally {
        await index.close();
      }
    };
    // From 10 cached files on: this repository's 40-odd are enough.
    const shared = await walked(open(10));
    expect(shared).toEqual(await walked(open()));
    expect(shared).toContainEqual(["big/a/added.py", 2]);
    expect(shared.length).toBe(records.length - 5 + 1);
  });
});

describe("splitWalk", () => {
  const list = [
    ...Array.from({ length: 60 }, (_, index) => `site/pkg${index % 3}/m${index}.py`),
    ...Array.from({ length: 30 }, (_, index) => `test/t${index}.py`),
    ...Array.from({ length: 10 }, (_, index) => `lib${index}.py`),
  ];

  test("chooses folders, none inside another, that hold about the share of the files", () => {
    const chosen = splitWalk([list], 0.33);
    const covered = list.filter((file) => chosen.some((folder) => file.startsWith(`${folder}/`)));
    expect(covered.length).toBeGreaterThanOrEqual(28);
    expect(covered.length).toBeLessThanOrEqual(33);
    for (const a of chosen) for (const b of chosen) if (a !== b) expect(a.startsWith(`${b}/`)).toBe(false);
    // `site` (60 files) is too large to take whole: its packages (20 each) are taken instead; `test` (30) fits.
    expect(chosen).not.toContain("site");
    expect(chosen).toEqual(["test"]);
  });

  test("looks into a folder too large to take whole", () => {
    expect(splitWalk([list], 0.25)).toEqual(["site/pkg0"]);
    expect(splitWalk([list.filter((file) => file.startsWith("site/"))], 0.5)).toEqual(["site/pkg0"]);
  });

  test("takes files from several lists, and nothing from an empty one", () => {
    expect(splitWalk([list.slice(0, 50), list.slice(50)], 0.33)).toEqual(splitWalk([list], 0.33));
    expect(splitWalk([[]])).toEqual([]);
    // Paths that are not plain count for nothing.
    expect(splitWalk([["../up/a.py", "/abs/b.py", "a//c.py", "ok/d.py"]], 1)).toEqual(["ok"]);
  });
});
