/**
 * The ignore files git applies that are not `.gitignore` files of the work tree: the global excludes file
 * (`core.excludesFile`, by default `~/.config/git/ignore`) and the exclusions of a worktree or submodule,
 * whose `.git` is a file naming its git folder. The read rule applies them in git's order, weakest first.
 */
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { exclusionsFileOf, gitDirOf, globalExcludesFile } from "../../src/access/git-files.ts";
import { createNavTools, ReadRule } from "../../src/index.ts";
import { tempDir } from "../support/temp-dir.ts";

function writeUnder(root: string, files: Record<string, string>): void {
  for (const [relative, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, relative)), { recursive: true });
    writeFileSync(join(root, relative), text);
  }
}

let base: string;
let home: string;
let main: string;
let worktree: string;
let submodule: string;
beforeAll(() => {
  base = realpathSync(tempDir("rlmkit-git-files-"));
  home = join(base, "home");
  main = join(base, "main");
  worktree = join(base, "worktree");
  submodule = join(main, "deps", "sub");
  writeUnder(base, {
    "main/.git/HEAD": "ref: refs/heads/main\n",
    "main/.git/info/exclude": "main-only.txt\n",
    "main/.git/worktrees/w/HEAD": "ref: refs/heads/w\n",
    "main/.git/worktrees/w/commondir": "../..\n",
    "main/.git/modules/sub/HEAD": "ref: refs/heads/main\n",
    "main/.git/modules/sub/info/exclude": "sub-only.txt\n",
    "main/deps/sub/.git": "gitdir: ../../.git/modules/sub\n",
    "main/deps/sub/sub-only.txt": "SUB_MARKER\n",
    "main/deps/sub/kept.txt": "KEPT_MARKER\n",
    "worktree/.git": `gitdir: ${join(base, "main/.git/worktrees/w")}\n`,
    "worktree/main-only.txt": "MAIN_ONLY_MARKER\n",
    "worktree/notes.tmp": "TMP_MARKER\n",
    "worktree/keep.tmp": "KEEP_MARKER\n",
    "worktree/.gitignore": "!keep.tmp\n",
    "worktree/app.ts": "export const APP_MARKER = 1;\n",
    "plain/notes.tmp": "PLAIN_MARKER\n",
  });
});

describe("where git keeps a repository's ignore files", () => {
  test("a .git folder, a worktree's .git file and a submodule's", () => {
    expect(gitDirOf(main)).toBe(join(main, ".git"));
    expect(gitDirOf(worktree)).toBe(join(main, ".git/worktrees/w"));
    expect(gitDirOf(submodule)).toBe(join(main, ".git/modules/sub"));
    expect(gitDirOf(join(base, "plain"))).toBeUndefined();
    // A worktree shares its main repository's exclusions; a submodule has its own.
    expect(exclusionsFileOf(main)).toBe(join(main, ".git/info/exclude"));
    expect(exclusionsFileOf(worktree)).toBe(join(main, ".git/info/exclude"));
    expect(exclusionsFileOf(submodule)).toBe(join(main, ".git/modules/sub/info/exclude"));
  });

  test.each<{ label: string; files: Record<string, string>; env: Record<string, string>; expected: string }>([
    { label: "no setting: the XDG default", files: {}, env: {}, expected: "home/.config/git/ignore" },
    { label: "XDG_CONFIG_HOME moves the default", files: {}, env: { XDG_CONFIG_HOME: "xdg" }, expected: "xdg/git/ignore" },
    { label: "~/.gitconfig, with ~", files: { "home/.gitconfig": "[user]\n\tname = x\n[core]\n\texcludesFile = ~/.global-ignore\n" }, env: {}, expected: "home/.global-ignore" },
    { label: "names ignore case, a quoted value with a comment after it", files: { "home/.gitconfig": '[CORE]\n  ExcludesFile = "/abs/ignore file" # mine\n' }, env: {}, expected: "/abs/ignore file" },
    { label: "a [core \"x\"] subsection is not the core section", files: { "home/.gitconfig": '[core "x"]\n\texcludesFile = /wrong\n' }, env: {}, expected: "home/.config/git/ignore" },
    { label: "the XDG config, then ~/.gitconfig overrides it", files: { "home/.config/git/config": "[core]\nexcludesfile = /from-xdg\n", "home/.gitconfig": "[core]\nexcludesfile = /from-home\n" }, env: {}, expected: "/from-home" },
    { label: "the repository's config overrides the user's", files: { "home/.gitconfig": "[core]\nexcludesfile = /from-home\n", "main/.git/config": "[core] excludesfile = /from-repo\n" }, env: {}, expected: "/from-repo" },
    { label: "GIT_CONFIG_GLOBAL replaces the user's files", files: { "home/.gitconfig": "[core]\nexcludesfile = /from-home\n", "other.gitconfig": "[core]\nexcludesfile = /from-other\n" }, env: { GIT_CONFIG_GLOBAL: "other.gitconfig" }, expected: "/from-other" },
    { label: "GIT_CONFIG_SYSTEM, which the user's overrides", files: { "system.gitconfig": "[core]\nexcludesfile = /from-system\n" }, env: { GIT_CONFIG_SYSTEM: "system.gitconfig", GIT_CONFIG_NOSYSTEM: "" }, expected: "/from-system" },
  ])("the global excludes file: $label", ({ files, env, expected }) => {
    const root = realpathSync(tempDir("rlmkit-git-config-"));
    writeUnder(root, { "main/.git/HEAD": "ref: refs/heads/main\n", ...files });
    const resolved = Object.fromEntries(Object.entries(env).map(([key, value]) => [key, value && join(root, value)]));
    // The machine's own /etc/gitconfig is left out (GIT_CONFIG_NOSYSTEM), unless a row names a system file.
    expect(globalExcludesFile(join(root, "main"), { HOME: join(root, "home"), GIT_CONFIG_NOSYSTEM: "1", ...resolved })).toBe(expected.startsWith("/") ? expected : join(root, expected));
  });
});

describe("the read rule with ignore files kept outside the work tree", () => {
  const withHome = async <T>(run: () => Promise<T> | T): Promise<T> => {
    const before = { HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME, GIT_CONFIG_GLOBAL: process.env.GIT_CONFIG_GLOBAL, GIT_CONFIG_NOSYSTEM: process.env.GIT_CONFIG_NOSYSTEM };
    process.env.HOME = home;
    process.env.GIT_CONFIG_NOSYSTEM = "1";
    delete process.env.XDG_CONFIG_HOME;
    delete process.env.GIT_CONFIG_GLOBAL;
    try {
      return await run();
    } finally {
      for (const [key, value] of Object.entries(before)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  };

  beforeAll(() => writeUnder(base, { "home/.config/git/ignore": "*.tmp\n" }));

  test.each([
    { root: "worktree", path: "main-only.txt", reason: "ignored", message: "rule 'main-only.txt' in the repository's info/exclude (in its git folder)" },
    { root: "worktree", path: "notes.tmp", reason: "ignored", message: "rule '*.tmp' in git's global excludes file (core.excludesFile)" },
    // A .gitignore decides after both, as in git.
    { root: "worktree", path: "keep.tmp", reason: undefined },
    { root: "worktree", path: "app.ts", reason: undefined },
    { root: "main/deps/sub", path: "sub-only.txt", reason: "ignored", message: "rule 'sub-only.txt' in the repository's info/exclude (in its git folder)" },
    { root: "main/deps/sub", path: "kept.txt", reason: undefined },
    // Outside a repository git applies neither.
    { root: "plain", path: "notes.tmp", reason: undefined },
  ])("$root: $path is refused as $reason", async ({ root, path, reason, message }) =>
    withHome(() => {
      const refusal = new ReadRule(join(base, root)).refusal(path);
      expect(refusal?.reason).toBe(reason);
      if (message) expect(refusal?.message).toContain(message);
      // A refusal names no host path.
      if (refusal) expect(refusal.message).not.toContain(base);
    }),
  );

  test("the nav tools of a worktree leave out what its exclusions and the global excludes file ignore", async () =>
    withHome(async () => {
      const nav = await createNavTools(worktree, { cacheDir: false });
      try {
        const found = (await nav.search("MARKER")) as { matches: { path: string }[] };
        expect(found.matches.map((match) => match.path).sort()).toEqual(["app.ts", "keep.tmp"]);
      } finally {
        await nav.close();
      }
    }),
  );
});
