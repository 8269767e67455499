import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createNavTools, type NavTools } from "../../src/index.ts";

// A process that keeps its tools (an MCP server, a long session) answers from the repository as it is at
// each call: the folders are watched once the tools have answered, changed files are stated again, and a
// change of entries or of an ignore file makes a new walk.

const made: { root: string; nav: NavTools }[] = [];
afterEach(async () => {
  for (const { root, nav } of made.splice(0)) {
    await nav.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

// A repository and its tools after three calls: the watch starts once the first has answered, and the call after
// it has started walks again (for what changed before it); from then on the changes come from the watchers' events.
// And helpers to change it and to ask for the lines that hold a word.
async function repository(options: { watch?: boolean; cache?: boolean } = {}) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "rlmkit-watch-")));
  const cacheDir = options.cache ? fs.mkdtempSync(path.join(os.tmpdir(), "rlmkit-watch-cache-")) : false;
  const write = (relative: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), text);
  };
  write("a.py", 'def f():\n    return "needle"\n');
  write("sub/b.ts", "export const b = 'needle';\n");
  write("kept.log", "needle in a log\n");
  write(".gitignore", "kept.log\n");
  write("credentials/helper.py", "needle_helper = 1\n");
  write("target.py", "linked = 'before'\n");
  fs.symlinkSync("target.py", path.join(root, "link.py"));
  fs.mkdirSync(path.join(root, "empty"));
  const nav = await createNavTools(root, { cacheDir, ...(options.watch === undefined ? {} : { watch: options.watch }) });
  made.push({ root, nav });
  if (cacheDir) made.push({ root: cacheDir, nav });
  await nav.search("needle");
  await nav.search("needle");
  await new Promise((resolve) => setTimeout(resolve, 50));
  await nav.search("needle");
  const lines = async (word: string) => {
    const result = await nav.search(word, { limit: 1000 });
    if ("error" in result) throw new Error(result.error);
    return result.matches.map((match) => `${match.path}:${match.line}:${match.text.trim()}`).sort();
  };
  // Moves an entry out of the repository, beside it, removed with it after the test.
  const moveOut = (relative: string) => {
    const outside = `${root}-${path.basename(relative)}`;
    fs.renameSync(path.join(root, relative), outside);
    made.push({ root: outside, nav });
  };
  return { root, nav, write, lines, moveOut, at: (relative: string) => path.join(root, relative) };
}

describe("changes made while the tools are open are seen at the next call", () => {
  test.each([
    {
      label: "a file rewritten in place with the same size",
      change: (repo: Repo) => repo.write("a.py", 'def f():\n    return "noodle"\n'),
      word: "oodle",
      lines: ['a.py:2:return "noodle"'],
    },
    { label: "a line appended", change: (repo: Repo) => fs.appendFileSync(repo.at("a.py"), "# zebra\n"), word: "zebra", lines: ["a.py:3:# zebra"] },
    { label: "a file emptied", change: (repo: Repo) => fs.truncateSync(repo.at("a.py")), word: "needle", lines: ["credentials/helper.py:1:needle_helper = 1", "sub/b.ts:1:export const b = 'needle';"] },
    { label: "a file removed", change: (repo: Repo) => fs.rmSync(repo.at("sub/b.ts")), word: "needle", lines: ['a.py:2:return "needle"', "credentials/helper.py:1:needle_helper = 1"] },
    { label: "a file added beside others", change: (repo: Repo) => repo.write("sub/c.py", "zebra = 1\n"), word: "zebra", lines: ["sub/c.py:1:zebra = 1"] },
    { label: "a file added in a new folder", change: (repo: Repo) => repo.write("new/deep/c.py", "zebra = 1\n"), word: "zebra", lines: ["new/deep/c.py:1:zebra = 1"] },
    { label: "a file added in a folder that was empty", change: (repo: Repo) => repo.write("empty/c.py", "zebra = 1\n"), word: "zebra", lines: ["empty/c.py:1:zebra = 1"] },
    {
      label: "a file renamed",
      change: (repo: Repo) => fs.renameSync(repo.at("a.py"), repo.at("z.py")),
      word: "needle",
      lines: ["credentials/helper.py:1:needle_helper = 1", "sub/b.ts:1:export const b = 'needle';", 'z.py:2:return "needle"'],
    },
    {
      label: "a folder renamed",
      change: (repo: Repo) => fs.renameSync(repo.at("sub"), repo.at("moved")),
      word: "needle",
      lines: ['a.py:2:return "needle"', "credentials/helper.py:1:needle_helper = 1", "moved/b.ts:1:export const b = 'needle';"],
    },
    {
      label: "a folder named like a secret file moved out of the repository",
      change: (repo: Repo) => repo.moveOut("credentials"),
      word: "needle",
      lines: ['a.py:2:return "needle"', "sub/b.ts:1:export const b = 'needle';"],
    },
    { label: "the target of a symlinked file edited", change: (repo: Repo) => repo.write("target.py", "linked = 'after!'\n"), word: "after!", lines: ["link.py:1:linked = 'after!'", "target.py:1:linked = 'after!'"] },
    {
      label: "a file saved the way editors save (a new file renamed over it)",
      change: (repo: Repo) => {
        repo.write("a.py.tmp", 'def f():\n    return "zebra"\n');
        fs.renameSync(repo.at("a.py.tmp"), repo.at("a.py"));
      },
      word: "zebra",
      lines: ['a.py:2:return "zebra"'],
    },
    { label: "a file now ignored", change: (repo: Repo) => repo.write(".gitignore", "kept.log\na.py\n"), word: "needle", lines: ["credentials/helper.py:1:needle_helper = 1", "sub/b.ts:1:export const b = 'needle';"] },
    {
      label: "an ignored file no longer ignored",
      change: (repo: Repo) => repo.write(".gitignore", "# nothing\n"),
      word: "needle",
      lines: ['a.py:2:return "needle"', "credentials/helper.py:1:needle_helper = 1", "kept.log:1:needle in a log", "sub/b.ts:1:export const b = 'needle';"],
    },
    {
      label: "a file replaced by a folder of the same name",
      change: (repo: Repo) => {
        fs.rmSync(repo.at("a.py"));
        repo.write("a.py/inner.py", "zebra = 2\n");
      },
      word: "zebra",
      lines: ["a.py/inner.py:1:zebra = 2"],
    },
    {
      label: "a file replaced by a folder while another file is written",
      change: (repo: Repo) => {
        fs.rmSync(repo.at("a.py"));
        fs.mkdirSync(repo.at("a.py"));
        fs.appendFileSync(repo.at("sub/b.ts"), "// zebra\n");
      },
      word: "zebra",
      lines: ["sub/b.ts:2:// zebra"],
    },
  ])("$label", async ({ change, word, lines }) => {
    const repo = await repository();
    change(repo);
    expect(await repo.lines(word)).toEqual(lines);
    // And again: what the first call after the change found stands.
    expect(await repo.lines(word)).toEqual(lines);
  });

  test("with a disk cache too, and each tool sees the same files", async () => {
    const repo = await repository({ cache: true });
    fs.rmSync(repo.at("a.py"));
    repo.write("sub/c.py", "def zebra():\n    pass\n");
    expect(await repo.lines("needle")).toEqual(["credentials/helper.py:1:needle_helper = 1", "sub/b.ts:1:export const b = 'needle';"]);
    expect(await repo.nav.outline("a.py")).toMatchObject({ error: expect.stringContaining("no file or directory 'a.py'") });
    expect(await repo.nav.outline("sub/c.py")).toMatchObject({ symbols: [expect.objectContaining({ name: "zebra" })] });
    expect(await repo.nav.read("zebra")).toMatchObject({ path: "sub/c.py", startLine: 1 });
    const listing = await repo.nav.ls("sub");
    expect("entries" in listing && listing.entries.map((entry) => entry.name)).toEqual(["b.ts", "c.py"]);
  });

  test("a folder removed and made again at the same path is watched again", async () => {
    const repo = await repository();
    fs.rmSync(repo.at("sub"), { recursive: true });
    repo.write("sub/c.py", "zebra = 1\n");
    expect(await repo.lines("zebra")).toEqual(["sub/c.py:1:zebra = 1"]);
    // A change inside it after that call comes from its new watcher.
    repo.write("sub/d.py", "giraffe = 1\n");
    expect(await repo.lines("giraffe")).toEqual(["sub/d.py:1:giraffe = 1"]);
  });

  test("a folder moved away with the folder in it, then both made again: the inner one is watched again", async () => {
    const repo = await repository();
    repo.write("outer/inner/x.py", "x = 1\n");
    expect(await repo.lines("x = 1")).toEqual(["outer/inner/x.py:1:x = 1"]);
    repo.moveOut("outer");
    repo.write("outer/inner/y.py", "zebra = 1\n");
    expect(await repo.lines("zebra")).toEqual(["outer/inner/y.py:1:zebra = 1"]);
    repo.write("outer/inner/z.py", "giraffe = 1\n");
    expect(await repo.lines("giraffe")).toEqual(["outer/inner/z.py:1:giraffe = 1"]);
  });

  test("a folder swapped for another with its own .gitignore: what that one ignores is not shown", async () => {
    const repo = await repository();
    const other = fs.mkdtempSync(path.join(os.tmpdir(), "rlmkit-watch-other-"));
    made.push({ root: other, nav: repo.nav });
    fs.writeFileSync(path.join(other, ".gitignore"), "secret.txt\n");
    fs.writeFileSync(path.join(other, "secret.txt"), "zebra secret\n");
    fs.writeFileSync(path.join(other, "open.py"), "zebra = 1\n");
    fs.rmSync(repo.at("sub"), { recursive: true });
    fs.renameSync(other, repo.at("sub"));
    expect(await repo.lines("zebra")).toEqual(["sub/open.py:1:zebra = 1"]);
    expect(await repo.nav.read("sub/secret.txt")).toMatchObject({ refused: "ignored" });
  });

  test("a .gitignore change after a call that answered before walking is not lost", async () => {
    const repo = await repository();
    repo.write("new.py", "x = 1\n");
    // Answers (an error value) without walking: the walk the new file asked for is still to be made.
    expect(await repo.nav.search("")).toMatchObject({ error: expect.any(String) });
    repo.write(".gitignore", "kept.log\na.py\n");
    expect(await repo.lines("needle")).toEqual(["credentials/helper.py:1:needle_helper = 1", "sub/b.ts:1:export const b = 'needle';"]);
    expect(await repo.nav.read("a.py")).toMatchObject({ refused: "ignored" });
  });

  test("changes between calls that come in a burst (a checkout) are all taken in", async () => {
    const repo = await repository();
    for (let index = 0; index < 200; index++) repo.write(`burst/f${index}.py`, `zebra_${index} = ${index}\n`);
    fs.rmSync(repo.at("sub"), { recursive: true });
    const found = await repo.lines("zebra_");
    expect(found).toHaveLength(200);
    expect(await repo.lines("needle")).toEqual(['a.py:2:return "needle"', "credentials/helper.py:1:needle_helper = 1"]);
  });
});

describe("without watching (watch: false)", () => {
  test("the first walk's list stands, and a tool that reads a file states it again", async () => {
    const repo = await repository({ watch: false });
    repo.write("sub/c.py", "zebra = 1\n");
    fs.rmSync(repo.at("a.py"));
    // Not listed by the walk: not found until the tools are made again.
    expect(await repo.lines("zebra")).toEqual([]);
    // Gone: the tools that read it say so, and from then on it is not listed.
    expect(await repo.nav.outline("a.py")).toMatchObject({ error: expect.stringContaining("no file or directory 'a.py'") });
    expect(await repo.lines("needle")).toEqual(["credentials/helper.py:1:needle_helper = 1", "sub/b.ts:1:export const b = 'needle';"]);
  });
});

type Repo = Awaited<ReturnType<typeof repository>>;
