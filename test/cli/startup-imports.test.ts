/**
 * The command line starts fast because a command loads only what it runs:
 * `--help`, `config` and a nav command's argument parsing load commander and
 * nothing heavy (no zod, ajv, isolated-vm, acorn, SDKs). `npm run bench -- cli`
 * measures the time; this pins what is loaded, which is what the time depends on.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, test } from "vitest";

const BIN = fileURLToPath(new URL("../../bin/rlmkit.js", import.meta.url));
const RECORDER = fileURLToPath(new URL("../fixtures/cli/record-packages.ts", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "rlmkit-startup-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The environment without configuration variables, so that "nothing set" holds wherever the test runs; the index cache goes under the test's folder. */
const cleanEnv = { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(RLMKIT_|OPENAI_)/.test(name))), XDG_CACHE_HOME: join(dir, "cache"), LOCALAPPDATA: join(dir, "cache"), HOME: dir };

function packagesLoaded(args: readonly string[]): { status: number | null; packages: string[] } {
  const run = spawnSync(process.execPath, ["--import", RECORDER, BIN, ...args], { cwd: dir, encoding: "utf8", env: cleanEnv, timeout: 30_000 });
  const line = run.stderr.trim().split("\n").filter((text) => text.startsWith('{"packages"')).pop();
  expect(line, run.stderr).toBeDefined();
  return { status: run.status, packages: (JSON.parse(line!) as { packages: string[] }).packages };
}

describe("what a command loads at start-up", () => {
  test.for([
    { label: "--version", args: ["--version"], allowed: [] },
    { label: "--help", args: ["--help"], allowed: ["commander"] },
    { label: "config, nothing set", args: ["config"], allowed: ["commander"] },
    { label: "nav with an unknown tool (arguments parsed, nothing run)", args: ["nav", "frobnicate"], allowed: ["commander"], status: 1 },
    // A search runs the navigation tools (the read rule's packages, Ajv for the arguments), not the sandbox (isolated-vm, acorn), nor
    // the parser when no file with a match needs parsing (here no file holds the needle).
    { label: "a nav search", args: ["nav", "search", "needle", "--repo", "."], allowed: ["ajv", "commander", "fast-deep-equal", "fast-uri", "ignore", "json-schema-traverse", "picomatch"] },
  ])("$label: $allowed", ({ args, allowed, status = 0 }) => {
    const run = packagesLoaded(args);
    expect(run.status).toBe(status);
    expect(run.packages).toEqual(allowed);
  });

  test("a search with a match in a file the index has not parsed loads the parser then, and only then", () => {
    writeFileSync(join(dir, "found.py"), "def find():\n    return 'needle'\n");
    try {
      const run = packagesLoaded(["nav", "search", "needle", "--repo", "."]);
      expect(run.status).toBe(0);
      expect(run.packages).toContain("web-tree-sitter");
    } finally {
      rmSync(join(dir, "found.py"));
    }
  });

  test("a config value to check loads zod then, and only then", () => {
    writeFileSync(join(dir, "rlmkit.config.json"), JSON.stringify({ maxIterations: 7 }));
    try {
      const run = packagesLoaded(["config"]);
      expect(run.status).toBe(0);
      expect(run.packages).toEqual(["commander", "zod"]);
    } finally {
      rmSync(join(dir, "rlmkit.config.json"));
    }
  });
});
