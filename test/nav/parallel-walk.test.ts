/**
 * A walk that hands some folders to a second thread lists exactly what a walk on one
 * thread lists, whatever changed since the list the folders were chosen from.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { ReadRule } from "../../src/access/read-rule.ts";
import { startWalkHelper } from "../../src/nav/parallel-walk.ts";
import { walkRepository, type WalkedFile } from "../../src/nav/repo-walk.ts";
import { splitWalk } from "../../src/nav/walk-split.ts";

let base: string;
let root: string;

async function write(relative: string, text = "x\n"): Promise<void> {
  await fs.mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await fs.writeFile(path.join(root, relative), text);
}

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

  test("the helper walks its folders on a worker thread and answers, naming those it did not walk", () => {
    const helper = startWalkHelper(root, new ReadRule(root).secretFiles, ["big/a", "small", "ignored", "not-there"]);
    const files: WalkedFile[] = [];
    const outsideLinks: string[] = [];
    expect(helper.collect(files, outsideLinks)).toEqual(["ignored", "not-there"]);
    // big/a/notes.log is ignored by the root's .gitignore, which the worker read itself.
    expect(files.map((file) => file.path).sort()).toEqual([...[0, 1, 2, 3, 4].map((index) => `big/a/f${index}.py`), ...[0, 1, 2, 3, 4].map((index) => `small/f${index}.py`)]);
    expect(files.every((file) => file.size === 2 && file.mtimeMs > 0 && file.ctimeMs > 0)).toBe(true);
  });

  // Folders that are not plain relative paths (from an edited cache, say) are walked as if not shared.
  test.for([[["small"]], [["big/a", "big/c"]], [["big"]], [[""]], [["..", "../outside", "/etc", "big/../small", "big/"]]])("lists the same with the share %j", async ([share]) => {
    expect(walkRepository(root, new ReadRule(root), share)).toEqual(walkRepository(root, new ReadRule(root)));
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
