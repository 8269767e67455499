/**
 * A symlink inside a repository shows what it leads to: one that leads to `.git`, a secret file or an
 * ignored file is refused as its target is, by the read rule (asked for by name), by the walk (never
 * listed, so never searched), and when a kept listing of an earlier walk names it.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { createNavTools, ReadRule, type NavTools } from "../../src/index.ts";
import { walkRepository } from "../../src/nav/repo-walk.ts";
import { listingOf, replayListing } from "../../src/nav/walk-listing.ts";
import { TextSearchEngine } from "../../src/nav/text-search.ts";
import { makeRepo } from "../cli/run-cli.ts";
import { tempDir } from "../support/temp-dir.ts";

let repo: string;
let nav: NavTools;

// Each link, what it leads to, and why that may not be read (none: it may).
const LINKS = [
  { link: "notes-link.txt", target: ".git/config", reason: "git" },
  { link: "env-link.txt", target: ".env", reason: "secret" },
  { link: "bundle-link.js", target: "dist/bundle.js", reason: "ignored" },
  { link: "gitdir-link", target: ".git", reason: "git" },
  { link: "ok-link.ts", target: "src/app.ts", reason: undefined },
] as const;

beforeAll(async () => {
  repo = realpathSync(
    makeRepo({
      ".gitignore": "dist/\n",
      "src/app.ts": "export const app = 'SECRET_MARKER is not here';\n",
      "dist/bundle.js": "console.log('IGNORED_MARKER');\n",
      "src/mod.py": "def public_fn():\n    return 1\n",
      "dist/hidden.py": "def hidden_symbol():\n    return 'HIDDEN_MARKER and some more text'\n",
      "dist/limited.py": "LIMIT_MARKER\nLIMIT_MARKER\nLIMIT_MARKER, in a file git ignores\n",
      ".git/config": "[remote \"origin\"]\n  url = https://GIT_MARKER@example.com/repo.git\n",
      ".env": "API_TOKEN=ENV_MARKER\n",
      "home/.aws/credentials": "aws_secret_access_key = AWS_MARKER\n",
    }),
  );
  for (const { link, target } of LINKS) symlinkSync(target, join(repo, link));
  // A chain of links, a link by absolute path, and a link to a folder that holds a secret file.
  symlinkSync("env-link.txt", join(repo, "chain.txt"));
  symlinkSync(join(repo, ".env"), join(repo, "absolute.txt"));
  symlinkSync("home/.aws", join(repo, "cfg"));
  nav = await createNavTools(repo, { cacheDir: false });
});

afterAll(async () => {
  await nav?.close();
});

describe.skipIf(process.platform === "win32")("a symlink to what may not be read", () => {
  test.each(LINKS)("$link -> $target: the rule says $reason", ({ link, target, reason }) => {
    const refusal = new ReadRule(repo).refusal(link);
    expect(refusal?.reason).toBe(reason);
    if (reason) expect(refusal?.message).toContain(`it leads to '${target}'`);
    // Through a symlinked folder too.
    if (link === "gitdir-link") expect(new ReadRule(repo).refusal("gitdir-link/config")?.reason).toBe("git");
  });

  test.each([
    { asked: "chain.txt", reason: "secret" },
    { asked: "absolute.txt", reason: "secret" },
    { asked: "cfg/credentials", reason: "secret" },
  ])("$asked: the rule follows it to what it leads to ($reason)", ({ asked, reason }) => {
    expect(new ReadRule(repo).refusal(asked)?.reason).toBe(reason);
  });

  test("is never listed, searched or read by the nav tools; a link to code is", async () => {
    const listed = (await nav.ls("")) as { entries: { name: string }[] };
    const names = listed.entries.map((entry) => entry.name);
    expect(names).toContain("ok-link.ts");
    for (const { link, reason } of LINKS) if (reason) expect(names).not.toContain(link);
    for (const marker of ["GIT_MARKER", "ENV_MARKER", "IGNORED_MARKER", "AWS_MARKER"]) expect(await nav.search(marker), marker).toMatchObject({ matches: [] });
    expect(await nav.read("notes-link.txt")).toMatchObject({ refused: "git", error: expect.stringContaining("it leads to '.git/config'") });
    expect(await nav.read("env-link.txt")).toMatchObject({ refused: "secret" });
    expect(await nav.read("ok-link.ts")).toMatchObject({ text: expect.stringContaining("export const app") });
  });

  test("is refused when read after a link the walk listed was pointed at a secret", async () => {
    const tools = await createNavTools(repo, { cacheDir: false });
    const moved = join(repo, "moving-link.ts");
    symlinkSync("src/app.ts", moved);
    try {
      expect(await tools.read("moving-link.ts")).toMatchObject({ text: expect.stringContaining("export const app") });
      unlinkSync(moved);
      symlinkSync(".env", moved);
      expect(await tools.read("moving-link.ts")).toMatchObject({ refused: "secret", error: expect.stringContaining("it leads to '.env'") });
    } finally {
      unlinkSync(moved);
      await tools.close();
    }
  });

  test("is refused by nav_outline, nav_ls and nav_search, and leaves no symbols, after a file the walk listed became a link to an ignored file", async () => {
    const tools = await createNavTools(repo, { cacheDir: false });
    const moved = join(repo, "moving.py");
    symlinkSync("src/mod.py", moved);
    try {
      expect(await tools.outline("moving.py")).toMatchObject({ symbols: [expect.objectContaining({ name: "public_fn" })] });
      unlinkSync(moved);
      symlinkSync("dist/hidden.py", moved);
      // A search reads the files the walk listed: the link's target is read, found changed, and not shown.
      expect(await tools.search("HIDDEN_MARKER")).toMatchObject({ matches: [] });
      expect(await tools.outline("moving.py")).toMatchObject({ refused: "ignored", error: expect.stringContaining("it leads to 'dist/hidden.py'") });
      expect(await tools.ls("moving.py")).toMatchObject({ refused: "ignored" });
      expect(await tools.read("moving.py")).toMatchObject({ refused: "ignored" });
      expect(await tools.search("hidden_symbol", { symbols: true })).toMatchObject({ matches: [] });
      expect(JSON.stringify(await tools.search("hidden"))).not.toContain("HIDDEN_MARKER");
    } finally {
      unlinkSync(moved);
      await tools.close();
    }
  });

  test("is refused, and leaves no symbols, after a file the walk listed became a link out of the repository", async () => {
    const outside = tempDir("rlmkit-outside-");
    writeFileSync(join(outside, "elsewhere.py"), "def outside_symbol():\n    return 'OUTSIDE_MARKER, longer than the file it replaces'\n");
    const tools = await createNavTools(repo, { cacheDir: false });
    const moved = join(repo, "leaving.py");
    symlinkSync("src/mod.py", moved);
    try {
      expect(await tools.outline("leaving.py")).toMatchObject({ symbols: [expect.objectContaining({ name: "public_fn" })] });
      unlinkSync(moved);
      symlinkSync(join(outside, "elsewhere.py"), moved);
      expect(await tools.search("OUTSIDE_MARKER")).toMatchObject({ matches: [] });
      expect(await tools.outline("leaving.py")).toMatchObject({ error: "'leaving.py' is a symlink that points outside the repository; it cannot be read" });
      expect(await tools.ls("leaving.py")).toMatchObject({ error: expect.stringContaining("points outside the repository") });
      expect(await tools.search("outside_symbol", { symbols: true })).toMatchObject({ matches: [] });
    } finally {
      unlinkSync(moved);
      await tools.close();
    }
  });

  test("a search that finds a file changed so runs again without it: its limit and truncated hold", async () => {
    const tools = await createNavTools(repo, { cacheDir: false });
    // First in path order, so that its matches alone would fill the limit.
    const moved = join(repo, "aa-first.py");
    symlinkSync("src/mod.py", moved);
    writeFileSync(join(repo, "zz-last.txt"), "LIMIT_MARKER\n");
    try {
      expect(await tools.outline("aa-first.py")).toMatchObject({ path: "aa-first.py" });
      unlinkSync(moved);
      symlinkSync("dist/limited.py", moved);
      expect(await tools.search("LIMIT_MARKER", { limit: 1 })).toEqual({ matches: [expect.objectContaining({ path: "zz-last.txt" })], truncated: false });
    } finally {
      unlinkSync(moved);
      unlinkSync(join(repo, "zz-last.txt"));
      await tools.close();
    }
  });

  // The search's reads, whichever reads the files: the addon's scan (where it is built), this thread (without it),
  // or the workers (a pattern with a nested repetition runs there from the first search).
  const readers = [
    { reader: "the addon's scan", addon: undefined, onWorkers: false },
    { reader: "this thread's reads", addon: "0", onWorkers: false },
    { reader: "the workers' reads", addon: undefined, onWorkers: true },
  ] as const;
  const find = (tools: NavTools, marker: string, onWorkers: boolean) => (onWorkers ? tools.search(`(?:${marker}\\w*)+`, { regex: true }) : tools.search(marker));

  // Runs `check` with nav tools opened on `repo` (whose walk is made first), the addon on or off.
  async function withTools(addon: string | undefined, check: (tools: NavTools) => Promise<void>): Promise<void> {
    const before = process.env.RLMKIT_NATIVE_ADDON;
    if (addon) process.env.RLMKIT_NATIVE_ADDON = addon;
    const tools = await createNavTools(repo, { cacheDir: false });
    try {
      await check(tools);
    } finally {
      if (before === undefined) delete process.env.RLMKIT_NATIVE_ADDON;
      else process.env.RLMKIT_NATIVE_ADDON = before;
      await tools.close();
    }
  }

  test.each(readers)("is not searched through a file the walk listed that became a link to a secret of exactly its size ($reader)", async ({ addon, onWorkers }) => {
    const secret = "API_TOKEN=ENV_MARKER\n";
    const swapped = join(repo, "same-size.txt");
    writeFileSync(swapped, `${"-".repeat(secret.length - 1)}\n`);
    try {
      await withTools(addon, async (tools) => {
        // The walk lists it as a regular file of the secret's size; no search has read it yet.
        expect(await tools.ls("")).toMatchObject({ entries: expect.arrayContaining([expect.objectContaining({ name: "same-size.txt" })]) });
        unlinkSync(swapped);
        symlinkSync(".env", swapped);
        expect(await find(tools, "ENV_MARKER", onWorkers)).toEqual({ matches: [], truncated: false });
        expect(await tools.search("API_TOKEN", { regex: true })).toEqual({ matches: [], truncated: false });
        expect(await tools.read("same-size.txt")).toMatchObject({ refused: "secret" });
      });
    } finally {
      unlinkSync(swapped);
    }
  });

  test.each(readers)("is not searched through a folder the walk listed that became a link to an ignored folder ($reader)", async ({ addon, onWorkers }) => {
    // A listed file and an ignored one of the same name and size, in the folder the link will lead to.
    const listed = join(repo, "notes");
    mkdirSync(listed);
    writeFileSync(join(listed, "todo.txt"), "nothing here, padded out\n");
    writeFileSync(join(repo, "dist", "todo.txt"), "FOLDER_MARKER=1 padded..\n");
    try {
      await withTools(addon, async (tools) => {
        // The walk lists notes/todo.txt; nothing has read it yet (an analysis would leave a filter that rules it out).
        expect(await tools.ls("")).toMatchObject({ entries: expect.arrayContaining([expect.objectContaining({ name: "notes" })]) });
        renameSync(listed, `${listed}-moved`);
        symlinkSync("dist", listed);
        expect(await find(tools, "FOLDER_MARKER", onWorkers)).toEqual({ matches: [], truncated: false });
        expect(await tools.read("notes/todo.txt")).toMatchObject({ error: expect.any(String) });
        expect(JSON.stringify(await tools.read("notes/todo.txt"))).not.toContain("FOLDER_MARKER");
      });
    } finally {
      rmSync(listed, { force: true, recursive: true });
      rmSync(`${listed}-moved`, { force: true, recursive: true });
      rmSync(join(repo, "dist", "todo.txt"), { force: true });
    }
  });

  test("does not hang on a listed file that became a link to a FIFO (in a child process: a blocked read would hang it)", () => {
    const piped = makeRepo({ "piped.txt": "PIPE_MARKER\n", "app.ts": "export const app = 1;\n" });
    const child = fileURLToPath(new URL("../support/fifo-link-search.ts", import.meta.url));
    const run = spawnSync(process.execPath, [child, realpathSync(piped)], { encoding: "utf8", timeout: 20_000, env: { ...process.env, RLMKIT_NATIVE_ADDON: "0" } });
    expect(run.signal, run.stderr).toBeNull();
    const { search, outline, read } = JSON.parse(run.stdout) as { search: unknown; outline: { symbols?: unknown[] }; read: { text?: string; error?: string } };
    expect(search).toEqual({ matches: [], truncated: false });
    expect(outline.symbols ?? []).toEqual([]);
    expect(read.text).toBeUndefined();
    expect(read.error).toEqual(expect.any(String));
  });

  test("leaves no symbols of an ignored file reached through a folder swapped for a link since the walk", async () => {
    mkdirSync(join(repo, "lib"));
    writeFileSync(join(repo, "lib", "util.py"), "def helper_fn():\n    return 'ok, padded'\n");
    writeFileSync(join(repo, "dist", "util.py"), "def api_key_fn():\n    return 'sk-live-1'\n");
    try {
      await withTools(undefined, async (tools) => {
        expect(await tools.ls("")).toMatchObject({ entries: expect.arrayContaining([expect.objectContaining({ name: "lib" })]) });
        renameSync(join(repo, "lib"), join(repo, "lib-moved"));
        symlinkSync("dist", join(repo, "lib"));
        expect(await tools.search("api_key_fn", { symbols: true })).toEqual({ matches: [], truncated: false });
        // The folder back as it was: the file the walk listed, unchanged, whose analysis was not kept as an empty one.
        unlinkSync(join(repo, "lib"));
        renameSync(join(repo, "lib-moved"), join(repo, "lib"));
        expect(await tools.outline("lib/util.py")).toMatchObject({ symbols: [expect.objectContaining({ name: "helper_fn" })] });
      });
    } finally {
      rmSync(join(repo, "lib"), { force: true, recursive: true });
      rmSync(join(repo, "lib-moved"), { force: true, recursive: true });
      rmSync(join(repo, "dist", "util.py"), { force: true });
    }
  });

  test("finds new text in a file rewritten in place at its size and mtime once the index has restated it, though the workers held the old", async () => {
    const file = join(repo, "kept.txt");
    writeFileSync(file, "old words heree\n");
    try {
      await withTools(undefined, async (tools) => {
        // A first search on the workers: they read the file and keep its text.
        expect(await find(tools, "words", true)).toMatchObject({ matches: [expect.objectContaining({ path: "kept.txt" })] });
        // Its mtime kept to the nanosecond, as `touch -r` (or `cp -p`, `rsync -t`) keeps it.
        expect(spawnSync("touch", ["-r", file, `${file}.times`]).status).toBe(0);
        writeFileSync(file, "NEWER_MARK here\n");
        expect(spawnSync("touch", ["-r", `${file}.times`, file]).status).toBe(0);
        expect(statSync(file, { bigint: true }).mtimeNs).toBe(statSync(`${file}.times`, { bigint: true }).mtimeNs);
        // nav_read restats the file: the index lists its new version (its ctime changed with the write).
        expect(await tools.read("kept.txt")).toMatchObject({ text: expect.stringContaining("NEWER_MARK") });
        expect(await find(tools, "NEWER_MARK", true)).toMatchObject({ matches: [expect.objectContaining({ path: "kept.txt" })] });
      });
    } finally {
      rmSync(file, { force: true });
      rmSync(`${file}.times`, { force: true });
    }
  });

  test.each(readers)("finds a file an editor saved by renaming a new file over it since the walk ($reader)", async ({ addon, onWorkers }) => {
    const saved = join(repo, "saved.ts");
    writeFileSync(saved, "export const draft = 1;\n");
    try {
      await withTools(addon, async (tools) => {
        expect(await tools.ls("")).toMatchObject({ entries: expect.arrayContaining([expect.objectContaining({ name: "saved.ts" })]) });
        // Another file at the path now, of the same size: the walk's file is gone.
        writeFileSync(`${saved}.tmp`, "const SAVED_MARK = 123;\n");
        renameSync(`${saved}.tmp`, saved);
        const found = (await find(tools, "SAVED_MARK", onWorkers)) as { matches: { path: string }[] };
        expect(found.matches.map((match) => match.path)).toEqual(["saved.ts"]);
      });
    } finally {
      rmSync(saved, { force: true });
    }
  });

  test("runs a search once when a file only changed size since the walk (it was read as it is now)", async () => {
    const grown = join(repo, "grown.txt");
    writeFileSync(grown, "GROWN_MARK one\n");
    try {
      await withTools(undefined, async (tools) => {
        expect(await tools.ls("")).toMatchObject({ entries: expect.arrayContaining([expect.objectContaining({ name: "grown.txt" })]) });
        appendFileSync(grown, "GROWN_MARK two\n");
        const searches = vi.spyOn(TextSearchEngine.prototype, "search");
        try {
          expect(await tools.search("GROWN_MARK")).toMatchObject({ matches: [expect.objectContaining({ line: 1 }), expect.objectContaining({ line: 2 })] });
          expect(searches).toHaveBeenCalledTimes(1);
        } finally {
          searches.mockRestore();
        }
      });
    } finally {
      rmSync(grown, { force: true });
    }
  });

  test.each(readers)("searches what a listed link leads to now, after its target changed since the walk ($reader)", async ({ addon, onWorkers }) => {
    const target = join(repo, "src/target.ts");
    const link = join(repo, "target-link.ts");
    writeFileSync(target, "export const before = 1;\n");
    symlinkSync("src/target.ts", link);
    try {
      await withTools(addon, async (tools) => {
        expect(await tools.ls("")).toMatchObject({ entries: expect.arrayContaining([expect.objectContaining({ name: "target-link.ts" })]) });
        writeFileSync(target, "export const after = 'CHANGED_MARKER';\n");
        const found = (await find(tools, "CHANGED_MARKER", onWorkers)) as { matches: { path: string }[] };
        expect(found.matches.map((match) => match.path).sort()).toEqual(["src/target.ts", "target-link.ts"]);
      });
    } finally {
      unlinkSync(link);
      unlinkSync(target);
    }
  });

  test("is not listed from a kept listing that names it (one made under another rule, or forged)", () => {
    const rule = new ReadRule(repo);
    const walk = walkRepository(repo, rule);
    expect(walk.files.map((file) => file.path)).toEqual(expect.arrayContaining(["ok-link.ts"]));
    const listing = listingOf(repo, walk, rule, Date.now() + 60_000, 0)!;
    expect(listing).toBeDefined();
    const forged = { ...listing, links: [...listing.links, "env-link.txt", "notes-link.txt"].sort() };
    const replayed = replayListing(repo, forged, rule)!;
    const paths = replayed.files.map((file) => file.path);
    expect(paths).toContain("ok-link.ts");
    expect(paths).not.toContain("env-link.txt");
    expect(paths).not.toContain("notes-link.txt");
  });
});
