/**
 * Searches that ignore case fold letters as JavaScript's case-insensitive regular
 * expressions do, which agrees with ripgrep's -i on the letters below (final sigma
 * included), and literal searches and a regex's required literal agree with each other.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createNavTools, type NavTools } from "../../src/nav/index.ts";

let root: string;
let nav: NavTools;
const rgAvailable = spawnSync("rg", ["--version"]).status === 0;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-case-folding-"));
  await fs.writeFile(path.join(root, "greek.txt"), ["ΟΔΥΣΣΕΥΣ", "οδυσσευς", "Odysseus", "ΣΟΦΙΑ σοφία", ""].join("\n"));
  await fs.writeFile(path.join(root, "ascii.py"), ["class RetryError(Exception):", "    RETRY_LIMIT = 3", "def retry():", ""].join("\n"));
  nav = await createNavTools(root, { cacheDir: false, searchTimeoutMs: 4000 });
});
afterAll(async () => {
  await nav?.close();
  if (root) await fs.rm(root, { recursive: true, force: true });
});

async function lines(query: string, regex: boolean): Promise<string[]> {
  const result = await nav.search(query, { regex, caseSensitive: false });
  if ("error" in result) throw new Error(result.error);
  return result.matches.map((match) => `${match.path}:${match.line}`).sort();
}

function rgLines(query: string, regex: boolean): string[] {
  const run = spawnSync("rg", ["--no-config", "-n", "-i", ...(regex ? ["-e", query] : ["-F", "-e", query]), "."], { cwd: root, encoding: "utf8" });
  return run.stdout.split("\n").filter(Boolean).map((line) => /^\.\/(.*?):(\d+):/.exec(line)!).map((match) => `${match[1]}:${match[2]}`).sort();
}

test.for([
  // σ, ς and Σ are one letter in three forms: each finds the others, as with rg -i.
  { query: "ευσ", regex: false, expected: ["greek.txt:1", "greek.txt:2"] },
  { query: "ΕΥΣ", regex: false, expected: ["greek.txt:1", "greek.txt:2"] },
  { query: "σοφ", regex: false, expected: ["greek.txt:4"] },
  { query: "retry", regex: false, expected: ["ascii.py:1", "ascii.py:2", "ascii.py:3"] },
  // A regex's literal (here `retry`) is found the same way before the pattern runs on the line.
  { query: String.raw`retry\w*\(`, regex: true, expected: ["ascii.py:1", "ascii.py:3"] },
  { query: String.raw`^\s*retry_`, regex: true, expected: ["ascii.py:2"] },
])("ignoring case: $query", async ({ query, regex, expected }) => {
  expect(await lines(query, regex)).toEqual(expected);
  if (rgAvailable) expect(rgLines(query, regex)).toEqual(expected);
});
