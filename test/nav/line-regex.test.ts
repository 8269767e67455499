import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNavTools, type NavTools } from "../../src/nav/index.ts";
import { lineRegex, searchLiteral } from "../../src/nav/line-regex.ts";
import { FIXTURE_SOURCE } from "./fixture-repo.ts";

// Lines a pattern must match one at a time: blank lines between indented classes
// (where `^\s*class` used to run from a blank line into the next), tabs, trailing spaces.
const ERRORS_PY = [
  "import os",
  "",
  "",
  "class ParseError(Exception):",
  "    pass",
  "",
  "   ",
  "    class NestedError(ValueError):",
  "\tclass TabbedError(Exception): pass",
  "class NotAnError:",
  "x = 1   ",
  "def retry(times):  # 3 tries",
  "    return [t for t in range(times)]",
  "",
].join("\n");

// Letters beyond ASCII in both cases, for case-insensitive patterns on the linear engine (which has no `i` flag).
// (One letter beyond ASCII to a line at most: JavaScript's \W takes them as non-word characters, ripgrep's does not.)
const ACCENTS_TXT = ["É", "é", "e", "CAFÉ", "café", "Á", "á", "a", "Σ", "σ", "ς", "ÀxxÄ", "Bx", "\bx", ""].join("\n");

let base: string;
let root: string;
let nav: NavTools;
const rgAvailable = spawnSync("rg", ["--version"]).status === 0;

beforeAll(async () => {
  base = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-line-regex-"));
  root = path.join(base, "repo");
  await fs.cp(FIXTURE_SOURCE, root, { recursive: true });
  await fs.rm(path.join(root, ".gitignore"));
  await fs.writeFile(path.join(root, "py", "errors.py"), ERRORS_PY);
  await fs.writeFile(path.join(root, "accents.txt"), ACCENTS_TXT);
  nav = await createNavTools(root, { cacheDir: false, searchTimeoutMs: 4000 });
});

afterAll(async () => {
  await nav?.close();
  if (base) await fs.rm(base, { recursive: true, force: true });
});

// Every (path, line) where the pattern matches within the line alone, computed line by line.
async function expectedLines(pattern: string, caseSensitive: boolean): Promise<string[]> {
  const regex = new RegExp(pattern, caseSensitive ? "" : "i");
  const lines: string[] = [];
  for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    const relative = path.relative(root, absolute).split(path.sep).join("/");
    const text = await fs.readFile(absolute, "utf8");
    const split = text.split("\n");
    if (text.endsWith("\n")) split.pop();
    split.forEach((line, index) => {
      if (regex.test(line)) lines.push(`${relative}:${index + 1}`);
    });
  }
  return lines.sort();
}

function ripgrepLines(pattern: string, caseSensitive: boolean): string[] {
  const run = spawnSync("rg", ["--no-config", "--hidden", "--no-ignore", "-n", caseSensitive ? "-s" : "-i", "-e", pattern, "."], { cwd: root, encoding: "utf8" });
  expect(run.status === 0 || run.status === 1, run.stderr).toBe(true);
  return run.stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => /^\.\/(.*?):(\d+):/.exec(line)!)
    .map((match) => `${match[1]}:${match[2]}`)
    .sort();
}

async function navLines(pattern: string, caseSensitive: boolean): Promise<string[]> {
  const result = await nav.search(pattern, { regex: true, caseSensitive, limit: 1000 });
  if ("error" in result) throw new Error(result.error);
  expect(result.truncated).toBe(false);
  return result.matches.map((match) => `${match.path}:${match.line}`).sort();
}

// [label, pattern, case-sensitive]
const PATTERNS: [string, string, boolean][] = [
  ["indented class ending in Error (\\s* never crosses a blank line)", String.raw`^\s*class\s+\w+Error\b`, true],
  ["blank or whitespace-only lines", String.raw`^\s*$`, true],
  ["trailing whitespace", String.raw`\s+$`, true],
  ["a negated class that would run into the next line", String.raw`:[^a-z]*$`, true],
  ["\\W and \\D runs", String.raw`\W\W\D`, true],
  ["a class holding \\s", String.raw`[\s(]+retry`, true],
  ["case-insensitive keywords", String.raw`\b(class|def|func|fn)\s+\w+`, false],
  ["case-insensitive with a negated class", String.raw`^[^a-z]*import`, false],
  ["alternation and optional groups", String.raw`(async\s+)?function\s+\w+|=>`, true],
  ["counted repetition", String.raw`\d{2,}`, true],
  ["empty-matching pattern (every line)", String.raw`x*`, true],
  ["nested repetition (runs on the linear engine)", String.raw`^(\s*\w+)+:`, true],
  ["nested repetition, case-insensitive", String.raw`(r[a-z]+)+y`, false],
  ["nested repetition, case-insensitive, a letter beyond ASCII", String.raw`(é+)+`, false],
  ["nested repetition, case-insensitive, a word beyond ASCII", String.raw`(caf(é|e))+`, false],
  ["nested repetition, case-insensitive, a range beyond ASCII", String.raw`([à-ä]x*)+`, false],
  ["nested repetition, case-insensitive, the three Greek sigmas", String.raw`(σ+)+`, false],
  // Patterns with a required literal: the lines that hold it are found first, then the pattern runs on each.
  ["a literal found first, the match starting before it", String.raw`\w+Error\b`, true],
  ["a literal found first, case-insensitive", String.raw`^\s*CLASS\s+\w+error\b`, false],
  ["an escaped literal", String.raw`\w+\(self`, true],
  ["a literal after an optional letter and a group", String.raw`(async\s+)?defs?\s+retry`, false],
  ["a literal in a line of its own, repeated on the line", String.raw`return`, true],
];

describe("nav_search regular expressions match one line at a time, as ripgrep does", () => {
  test.each(PATTERNS)("%s", async (_label, pattern, caseSensitive) => {
    const lines = await navLines(pattern, caseSensitive);
    expect(lines).toEqual(await expectedLines(pattern, caseSensitive));
    if (rgAvailable) expect(lines).toEqual(ripgrepLines(pattern, caseSensitive));
  });

  test.for([String.raw`\w+Error\b`, String.raw`[a-z]*ry\(times`, String.raw`\(\w+Error`])("%s: each match's column is where the pattern first matches in its line", async (pattern) => {
    const result = await nav.search(pattern, { regex: true, caseSensitive: true, limit: 1000 });
    if ("error" in result) throw new Error(result.error);
    expect(result.matches.length).toBeGreaterThan(0);
    for (const match of result.matches) {
      const line = (await fs.readFile(path.join(root, match.path), "utf8")).split("\n")[match.line - 1]!;
      expect(match.column, `${match.path}:${match.line}`).toBe(line.search(new RegExp(pattern)) + 1);
    }
  });

  test("the issue's case: 4 classes, no blank line", async () => {
    const result = await nav.search(String.raw`^\s*class\s+\w+Error\b`, { regex: true, caseSensitive: true, glob: "py/errors.py" });
    expect(result).toMatchObject({ matches: [{ line: 4 }, { line: 8 }, { line: 9 }, { line: 10 }], truncated: false });
    if ("matches" in result) expect(result.matches.every((match) => match.text.trim().length > 0)).toBe(true);
  });
});

describe("constructs a line-oriented, linear-time search refuses", () => {
  const REFUSED: [string, string, string][] = [
    ["a backreference", String.raw`(\w)\1`, "backreferences (\\1) are not supported"],
    ["a named backreference", String.raw`(?<q>['"]).*\k<q>`, "backreferences (\\k<name>) are not supported"],
    ["a lookahead", String.raw`retry(?=\()`, "lookaround such as (?=...) is not supported"],
    ["a negative lookbehind", String.raw`(?<!\.)retry`, "lookaround such as (?<!...) is not supported"],
    ["a line break", String.raw`:\n\s+pass`, "the pattern names a line break (\\n)"],
    // What ripgrep reads as a class, an anchor or a flag, and a JavaScript pattern would read as plain letters.
    ["a Unicode property class", String.raw`\p{L}+`, "Unicode property classes (\\p{…}) are not supported"],
    ["a short Unicode property class", String.raw`\pL`, "Unicode property classes (\\p{…}) are not supported"],
    ["a braced hexadecimal escape", String.raw`\x{41}`, "\\x{…} escapes are not supported"],
    ["a braced Unicode escape", String.raw`caf\u{e9}`, "\\u{…} escapes are not supported"],
    ["the start of the text", String.raw`\Aimport`, "\\A (the start of the text) is not supported"],
    ["the end of the text", String.raw`pass\z`, "\\z (the end of the text) is not supported"],
    ["a POSIX class", String.raw`[[:alpha:]]+`, "POSIX classes such as [:alpha:] are not supported"],
    ["an inline flag", String.raw`(?i)retry`, "(?i) is not supported"],
    ["inline flags turned off", String.raw`(?-i)retry`, "(?-i) is not supported"],
    ["a Python-style named group", String.raw`(?P<name>\w+)`, "(?P<name>…) is not supported"],
    // JavaScript reads a group's own flags, but neither the rewrite that keeps a match within a line nor the linear engine can take them.
    ["a group with its own flags", String.raw`def (?i:RETRY)\(`, "(?i:…) is not supported"],
    ["a group whose dot matches a line feed", String.raw`q(?s:.)b`, "(?s:…) is not supported"],
  ];
  test.each(REFUSED)("%s", async (_label, pattern, message) => {
    expect(await nav.search(pattern, { regex: true })).toEqual({ error: expect.stringContaining(message) });
  });

  test("[\\b] in a class is a backspace, in any case, on the linear engine too (ripgrep refuses it)", async () => {
    expect(await navLines(String.raw`([\b]x*)+`, false)).toEqual(await expectedLines(String.raw`[\b]`, false));
    expect(await navLines(String.raw`([\b]x*)+`, false)).toEqual(["accents.txt:14"]);
  });

  test("a line feed inside a class is dropped (the class matches the rest), as ripgrep does", async () => {
    expect(await navLines(String.raw`[\n#]`, true)).toEqual(await expectedLines("#", true));
  });
});

describe("catastrophic patterns answer instead of running to the time limit", () => {
  test("a pattern that backtracks without nested repetition is moved to the linear engine once its worker stalls", async () => {
    await fs.writeFile(path.join(root, "spaces.txt"), `${" ".repeat(3000)}!\n`);
    const fresh = await createNavTools(root, { cacheDir: false, searchTimeoutMs: 8000 });
    try {
      // O(n^4) backtracking on the 3,000 spaces: hours on a backtracking engine.
      expect(await fresh.search(String.raw`^\s*\s*\s*\s*x`, { regex: true, glob: "spaces.txt" })).toEqual({ matches: [], truncated: false });
    } finally {
      await fresh.close();
      await fs.rm(path.join(root, "spaces.txt"));
    }
  });
});

describe("searchLiteral: what every matching line of a search holds", () => {
  const rows: { request: { regex: boolean; query: string; caseSensitive: boolean }; backtracking?: boolean; literal: string | undefined }[] = [
    { request: { regex: false, query: "self.", caseSensitive: true }, literal: "self." },
    { request: { regex: false, query: "(a+)+", caseSensitive: false }, backtracking: true, literal: "(a+)+" },
    { request: { regex: true, query: String.raw`^\s*class\s+\w+Error\b`, caseSensitive: true }, literal: "class" },
    { request: { regex: true, query: String.raw`\bhttps?://\w+`, caseSensitive: false }, literal: "http" },
    { request: { regex: true, query: String.raw`import\s+(os|sys)\b`, caseSensitive: true }, literal: "import" },
    { request: { regex: true, query: "a|b", caseSensitive: true }, literal: undefined },
    { request: { regex: true, query: "ab", caseSensitive: true }, literal: undefined },
    { request: { regex: true, query: "(foo", caseSensitive: true }, literal: undefined },
    // A pattern for the linear-time engine: its literal still filters files, but the backtracking scan does not take it.
    { request: { regex: true, query: String.raw`^(\w+\s?)+:$ total`, caseSensitive: true }, literal: " total" },
    { request: { regex: true, query: String.raw`^(\w+\s?)+:$ total`, caseSensitive: true }, backtracking: true, literal: undefined },
  ];
  test.each(rows)("$request.query (regex: $request.regex, backtracking: $backtracking) -> $literal", ({ request, backtracking, literal }) => {
    expect(searchLiteral(request, backtracking)).toBe(literal);
  });

  test("a pattern is read once, with and without case apart", () => {
    const pattern = String.raw`def\s+\w+\(self`;
    expect(lineRegex(pattern, true)).toBe(lineRegex(pattern, true));
    expect(lineRegex(pattern, false)).not.toBe(lineRegex(pattern, true));
    expect(lineRegex(pattern, false)).toMatchObject({ flags: "gim" });
  });
});

describe("what a pattern's lines must hold (read once from the pattern)", () => {
  test.each([
    ["import\\s+(os|sys)\\b", ["import"], [["os", "sys"]]],
    ["^\\s*class\\s+\\w+Error\\b", ["class", "Error"], []],
    // No run of plain characters outside the group, and still a group every match goes through.
    ["\\b(os|sys)\\b", [], [["os", "sys"]]],
    // A top-level `|`: nothing is required of every line.
    ["import os|from (re|ast)", [], []],
    // A group that may be skipped requires nothing.
    ["def (get|set)?_\\w+", ["def "], []],
  ] as const)("%s", (pattern, literals, alternatives) => {
    const read = lineRegex(pattern, true);
    if ("error" in read) throw new Error(read.error);
    expect(read.literals).toEqual(literals);
    expect(read.alternatives).toEqual(alternatives);
  });
});

describe("a long line's text", () => {
  test("is cut around the match, never between the two halves of a character beyond the Basic Multilingual Plane", async () => {
    const line = `a${"😀".repeat(100)}x${"😀".repeat(200)}`;
    await fs.writeFile(path.join(root, "emoji.txt"), `${line}\n`);
    // A new process's first search (on this thread or the native scan), then the same search on the workers.
    const fresh = await createNavTools(root, { cacheDir: false });
    try {
      for (let round = 0; round < 2; round++) {
        for (const [query, regex] of [["x", false], ["x😀", true]] as const) {
          const result = await fresh.search(query, { regex, caseSensitive: true, glob: "emoji.txt" });
          if ("error" in result) throw new Error(result.error);
          expect(result.matches).toHaveLength(1);
          const text = result.matches[0]!.text;
          expect(text.isWellFormed(), JSON.stringify(text.slice(0, 4))).toBe(true);
          expect(text.startsWith("…") && text.endsWith("…")).toBe(true);
          expect(text).toContain("x");
        }
      }
    } finally {
      await fresh.close();
      await fs.rm(path.join(root, "emoji.txt"));
    }
  });
});
