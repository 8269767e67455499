/**
 * The native addon (native/, built by `npm install`): a first search's scan on its threads gives
 * what the JavaScript scan gives, line for line, whatever the files hold (bytes that are not UTF-8,
 * carriage returns, long lines, binary files, files changed or gone since they were listed); it
 * stops at the search's deadline and when cancelled; and where a first search runs.
 */
import fc from "fast-check";
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { searchHere } from "../../src/nav/first-search.ts";
import { nativeAddon } from "../../src/nav/native-addon.ts";
import { scansNatively, searchNatively } from "../../src/nav/native-first-search.ts";
import { lineRegex, type LineRegex } from "../../src/nav/line-regex.ts";
import type { TextMatches } from "../../src/nav/search-matches.ts";
import { compileLinePattern, scanPlan, type SearchFile } from "../../src/nav/text-scan.ts";
import type { TextSearchRequest } from "../../src/nav/text-search.ts";
import { TextSearchEngine } from "../../src/nav/text-search.ts";
import { ScanStopped } from "../../src/nav/time-guard.ts";
import { fuzzParameters, fuzzTimeout } from "../fuzz/fuzz-settings.ts";

let base: string;

beforeAll(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-native-")));
});

afterAll(async () => {
  if (base) await fs.rm(base, { recursive: true, force: true });
});

afterEach(() => {
  delete process.env.RLMKIT_NATIVE_ADDON;
});

const never = () => undefined;

// The search on the calling thread, with the native addon or without it.
async function search(files: readonly SearchFile[], request: TextSearchRequest, native: boolean): Promise<TextMatches | undefined> {
  if (native) delete process.env.RLMKIT_NATIVE_ADDON;
  else process.env.RLMKIT_NATIVE_ADDON = "0";
  try {
    return await searchHere(files, request, never, Date.now() + 10_000);
  } finally {
    delete process.env.RLMKIT_NATIVE_ADDON;
  }
}

// The search on the native addon's threads alone, never the JavaScript scan (`null`: the addon did not take it).
async function nativeSearch(files: readonly SearchFile[], request: TextSearchRequest): Promise<TextMatches | undefined | null> {
  const pattern = request.regex ? (lineRegex(request.query, request.caseSensitive) as LineRegex) : undefined;
  const plan = scanPlan(request.query, request.caseSensitive, pattern ? compileLinePattern(pattern, false, true) : undefined, pattern?.literal);
  return searchNatively(files, request, plan, pattern ? pattern.literal : request.query, { stop: never, deadline: Date.now() + 10_000, patternBudgetMs: 300 });
}

// The matches, and for a literal the files read and found changed. (A pattern's scan in JavaScript
// reads files in batches before it knows how many matches they hold, so it may read a few more.)
function asPlain(result: TextMatches | undefined, regex: boolean) {
  if (!result) return result;
  const rows = result.build((path, line, column, text) => ({ path, line, column, text }));
  const matches = { rows, texts: rows.map((row) => row.text), count: result.count, truncated: result.truncated, paths: result.files().map((file) => file.path) };
  return regex ? matches : { ...matches, searchedFiles: result.searchedFiles, changed: result.changed };
}

// A pattern searched in one file holding `text` (in a folder of `base` named `folder`): the JavaScript scan's matches,
// and the native addon's alone (undefined when the addon did not take it).
async function patternInOneFile(folder: string, text: string, query: string, caseSensitive: boolean) {
  const root = path.join(base, folder);
  await fs.mkdir(root, { recursive: true });
  await fs.writeFile(path.join(root, "f.py"), text);
  const files: SearchFile[] = [{ path: "f.py", size: Buffer.byteLength(text), mtimeMs: 0 }];
  const request: TextSearchRequest = { root, query, regex: true, caseSensitive, limit: 100, maxFileBytes: 1 << 20 };
  return { expected: asPlain(await search(files, request, false), true), native: asPlain((await nativeSearch(files, request)) ?? undefined, true) };
}

// Required in CI, whose machine has what node-gyp needs; elsewhere the addon is optional, and its tests are skipped without it.
test.skipIf(process.env.CI === undefined && nativeAddon() === undefined)("is built on this machine (`npm install` builds it where node-gyp can)", () => {
  expect(nativeAddon()).toBeDefined();
  process.env.RLMKIT_NATIVE_ADDON = "0";
  expect(nativeAddon()).toBeUndefined();
});

// Pieces of lines that make matches likely, and bytes that are not text: letters in both cases, the
// literals, a carriage return, characters beyond ASCII, bytes that are not UTF-8 (a lone continuation
// byte, a sequence cut short, 0xFF), a byte order mark, a NUL (a binary file within its first 8,000 bytes).
const TEXT_PIECES = ["a", "b", "ab", "A", "B", "self.", "SELF.", "se", "lf", " ", "\t", "\r", "é", "😀", "Σ", "x"].map((piece) => Buffer.from(piece, "utf8"));
const BYTE_PIECES = [[0x80], [0xe2, 0x82], [0xff], [0xef, 0xbb, 0xbf], [0x00]].map((bytes) => Buffer.from(bytes));
const line = fc.array(fc.constantFrom(...TEXT_PIECES, ...BYTE_PIECES), { maxLength: 10 }).map((parts) => Buffer.concat(parts));
const fileBytes = fc
  .tuple(fc.array(line, { maxLength: 25 }), fc.boolean(), fc.nat({ max: 3 }))
  .map(([lines, trailing, long]) =>
    Buffer.concat([...lines.flatMap((bytes, index) => (index === 0 ? [bytes] : [Buffer.from("\n"), bytes])), Buffer.from((trailing ? "\n" : "") + "é".repeat(long * 100) + (long ? " ab" : ""), "utf8")]),
  );

const QUERIES: Pick<TextSearchRequest, "query" | "regex" | "caseSensitive">[] = [
  { query: "ab", regex: false, caseSensitive: true },
  { query: "self.", regex: false, caseSensitive: true },
  { query: "Self.", regex: false, caseSensitive: false },
  { query: "é", regex: false, caseSensitive: true },
  { query: "😀a", regex: false, caseSensitive: true },
  // Patterns with a required literal of three characters or more, which the addon looks for.
  { query: "self\\.\\s*\\w", regex: true, caseSensitive: true },
  { query: "^\\s*self\\.", regex: true, caseSensitive: true },
  { query: "SELF\\.\\w*$", regex: true, caseSensitive: false },
  // Patterns with two required literals: the addon keeps only the lines that hold both.
  { query: "self\\.\\w*.*xab", regex: true, caseSensitive: true },
  { query: "xab.*self\\.", regex: true, caseSensitive: true },
  { query: "SELF\\..*XAB", regex: true, caseSensitive: false },
  // Patterns with a required group of alternatives: the addon keeps only the lines that hold one of them.
  { query: "self\\.\\s*(ab|x)", regex: true, caseSensitive: true },
  { query: "(?:AB|b)\\w*SELF\\.", regex: true, caseSensitive: false },
];

describe.skipIf(!nativeAddon())("a first search on the native addon's threads", () => {
  test(
    "finds what the JavaScript scan finds, line for line, in every file whatever its bytes",
    async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(fileBytes, { minLength: 1, maxLength: 6 }), fc.constantFrom(...QUERIES), fc.integer({ min: 1, max: 30 }), fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), async (contents, query, limit, stale) => {
          const root = path.join(base, `run-${run++}`);
          await fs.mkdir(root);
          const files: SearchFile[] = [];
          for (const [index, bytes] of contents.entries()) {
            await fs.writeFile(path.join(root, `f${index}.txt`), bytes);
            // Some files listed with another size: they changed since the walk, and are read as they are now.
            files.push({ path: `f${index}.txt`, size: stale[index] ? bytes.length + 1 : bytes.length, mtimeMs: 0 });
          }
          // A file listed and gone.
          files.push({ path: "gone.txt", size: 5, mtimeMs: 0 });
          const request: TextSearchRequest = { root, ...query, limit, maxFileBytes: 1 << 20 };
          const expected = asPlain(await search(files, request, false), query.regex);
          const native = await nativeSearch(files, request);
          expect(native).not.toBeNull();
          expect(asPlain(native ?? undefined, query.regex)).toEqual(expected);
          await fs.rm(root, { recursive: true, force: true });
        }),
        fuzzParameters(0.05, 60),
      );
    },
    fuzzTimeout(0.05, 60_000),
  );

  test.for<[string, string, Partial<TextSearchRequest>]>([
    ["a glob", "ab", { glob: "f1*" }],
    ["a file over the size limit", "ab", { maxFileBytes: 10 }],
    ["a literal with a line feed (scanned in JavaScript)", "a\nb", {}],
    ["a literal that ignores case beyond ASCII (scanned in JavaScript)", "É", { caseSensitive: false }],
  ])("finds what the JavaScript scan finds with %s", async ([, query, options]) => {
    const root = path.join(base, "table");
    await fs.mkdir(root, { recursive: true });
    const texts = ["ab\nx ab\r\n", "xx\nAB ab\néÉ a\nb\n", `${"z".repeat(50)}\nab`];
    const files: SearchFile[] = [];
    for (const [index, text] of texts.entries()) {
      await fs.writeFile(path.join(root, `f${index}.txt`), text);
      files.push({ path: `f${index}.txt`, size: Buffer.byteLength(text), mtimeMs: 0 });
    }
    const request: TextSearchRequest = { root, query, regex: false, caseSensitive: true, limit: 100, maxFileBytes: 1 << 20, ...options };
    const expected = asPlain(await search(files, request, false), false);
    expect(expected?.count).toBeGreaterThanOrEqual(0);
    expect(asPlain(await search(files, request, true), false)).toEqual(expected);
  });

  test.for<[string, boolean]>([
    ["^\\s*class\\s+\\w+Error\\b", true],
    ["class\\s+\\w+ERROR", false],
    ["Error.*class", true],
  ])("finds what the JavaScript scan finds for a pattern with two required literals: %s", async ([query, caseSensitive]) => {
    const { expected, native } = await patternInOneFile("two-literals", "class A:\n  class BError(Exception):\nraise Error\nclass CERROR(x): # error\nError, class D\n\tclass EError:\r\n", query, caseSensitive);
    expect(expected!.count).toBeGreaterThan(0);
    expect(native).toEqual(expected);
  });

  test.for<[string, boolean, number[]]>([
    [String.raw`import\s+(os|sys)\b`, true, [1, 3, 6]],
    [String.raw`import\s+(os|sys)\b`, false, [1, 3, 5, 6]],
    [String.raw`(?:im|ex)port\s+(?<name>re|sys)\b`, true, [2, 3, 6]],
  ])("keeps the lines that hold any one of a required group's alternatives: %s (case-sensitive: %s)", async ([query, caseSensitive, lines]) => {
    const { expected, native } = await patternInOneFile("alternatives", "import os\nimport re\nimport  sys, OS\nfrom re import x\nimport SYS\n\timport\tsys as s\r\nimport osx\n", query, caseSensitive);
    expect(expected!.rows.map((row) => row.line)).toEqual(lines);
    expect(native).toEqual(expected);
  });

  test("leaves a pattern to the workers when the lines that hold its literal pass the bound (undefined), and keeps nothing of them", async () => {
    const root = path.join(base, "common-literal");
    await fs.mkdir(root);
    const files: SearchFile[] = [];
    for (let index = 0; index < 20; index++) {
      const text = "class A:\n    pass\nclass BError(Exception):\n".repeat(50);
      await fs.writeFile(path.join(root, `f${index}.py`), text);
      files.push({ path: `f${index}.py`, size: text.length, mtimeMs: 0 });
    }
    const request: TextSearchRequest = { root, query: String.raw`^\s*class\s+\w+Error\b`, regex: true, caseSensitive: true, limit: 50, maxFileBytes: 1 << 20 };
    const pattern = lineRegex(request.query, true) as LineRegex;
    const plan = scanPlan(request.query, true, compileLinePattern(pattern, false, true), pattern.literal);
    const options = { stop: never, deadline: Date.now() + 10_000, patternBudgetMs: 300 };
    expect(await searchNatively(files, request, plan, pattern.literal, { ...options, maxLineBytes: 1000 })).toBeUndefined();
    const whole = await searchNatively(files, request, plan, pattern.literal, options);
    expect(whole).toMatchObject({ count: 50, truncated: true });
    expect(whole?.build((_path, _line, _column, text) => text)[0]).toBe("class BError(Exception):");
    // A literal's lines too (a minified file is one long line).
    const literal: TextSearchRequest = { ...request, query: "BError", regex: false };
    const literalPlan = scanPlan("BError", true, undefined, undefined);
    expect(await searchNatively(files, literal, literalPlan, "BError", { ...options, maxLineBytes: 1000 })).toBeUndefined();
    expect(await searchNatively(files, literal, literalPlan, "BError", options)).toMatchObject({ count: 50, truncated: true });
  });

  test.skipIf(process.platform === "win32")("skips a file replaced by a FIFO or a directory since the walk, without waiting on it, with the addon and without", async () => {
    const root = path.join(base, "replaced");
    await fs.mkdir(path.join(root, "dir.txt"), { recursive: true });
    await fs.writeFile(path.join(root, "a.txt"), "x ab\n");
    execFileSync("mkfifo", [path.join(root, "pipe.txt")]);
    const files: SearchFile[] = ["a.txt", "dir.txt", "pipe.txt"].map((name) => ({ path: name, size: 5, mtimeMs: 0 }));
    const request: TextSearchRequest = { root, query: "ab", regex: false, caseSensitive: true, limit: 10, maxFileBytes: 1 << 20 };
    // A read that waited on the FIFO would block its thread: a writer opens it after 3 s, so such a wait ends and fails the test.
    const writer = spawn("sh", ["-c", `sleep 3; : > '${path.join(root, "pipe.txt")}'`], { stdio: "ignore" });
    writer.on("error", () => undefined);
    try {
      for (const native of [true, false]) {
        const started = performance.now();
        const result = asPlain(await search(files, request, native), false);
        expect(performance.now() - started).toBeLessThan(2000);
        expect(result).toMatchObject({ texts: ["x ab"], count: 1, searchedFiles: 1 });
      }
    } finally {
      writer.kill();
    }
  });

  test("answers a search whose deadline passed with the time-out, and one that was cancelled with the cancellation", async () => {
    const root = path.join(base, "many");
    await fs.mkdir(root);
    const files: SearchFile[] = [];
    for (let index = 0; index < 200; index++) {
      await fs.writeFile(path.join(root, `f${index}.txt`), `line ${index}\n`);
      files.push({ path: `f${index}.txt`, size: `line ${index}\n`.length, mtimeMs: 0 });
    }
    const request: TextSearchRequest = { root, query: "absent", regex: false, caseSensitive: true, limit: 50, maxFileBytes: 1 << 20 };
    await expect(searchHere(files, request, never, Date.now() - 1)).rejects.toMatchObject({ reason: "timeout" });
    const cancelled = new ScanStopped("cancelled");
    await expect(searchHere(files, request, () => cancelled, Date.now() + 10_000)).rejects.toBe(cancelled);
  });

  test("cancels the addon's scan while it runs: the stop check is polled during the scan, not only after it", async () => {
    // 60,000 reads of a 1 MiB file take seconds (3 s here); the search is cancelled at the poll's second check (about 20 ms in).
    const big = path.join(base, "cancel-big.txt");
    await fs.writeFile(big, "x".repeat(1 << 20));
    const files: SearchFile[] = Array.from({ length: 60_000 }, () => ({ path: "cancel-big.txt", size: 1 << 20, mtimeMs: 0 }));
    const request: TextSearchRequest = { root: base, query: "absent", regex: false, caseSensitive: true, limit: 50, maxFileBytes: 1 << 20 };
    const cancelled = new ScanStopped("cancelled");
    let checks = 0;
    const started = performance.now();
    await expect(searchNatively(files, request, scanPlan("absent", true, undefined, undefined), "absent", { stop: () => (++checks >= 2 ? cancelled : undefined), deadline: Date.now() + 60_000, patternBudgetMs: 300 })).rejects.toBe(cancelled);
    expect(performance.now() - started).toBeLessThan(1500);
  });
});

describe.skipIf(!nativeAddon())("where a first search runs", () => {
  const files: SearchFile[] = [
    { path: "a.txt", size: 10, mtimeMs: 0 },
    { path: "b.txt", size: 10, mtimeMs: 0 },
  ];
  const literal = { query: "ab", regex: false, caseSensitive: true, maxFileBytes: 100 };
  const wanting = (wanted: string) => ({ wants: (file: SearchFile) => file.path === wanted, add: () => undefined });

  test.for<[string, boolean, () => boolean]>([
    ["a literal, whatever the repository's size", true, () => scansNatively(files, literal)],
    ["a literal that ignores case", true, () => scansNatively(files, { ...literal, query: "AB", caseSensitive: false })],
    ["a pattern with a required literal", true, () => scansNatively(files, { ...literal, query: "class\\s+\\w+Error", regex: true })],
    ["a pattern without a literal of three characters", false, () => scansNatively(files, { ...literal, query: "a.b", regex: true })],
    ["a pattern with a repeated group holding a repetition (the workers' linear engine)", false, () => scansNatively(files, { ...literal, query: "(?:abc+)+d", regex: true })],
    ["a literal with a line feed", false, () => scansNatively(files, { ...literal, query: "a\nb" })],
    ["a literal with U+FFFD (the decoder's stand-in for bytes it cannot read)", false, () => scansNatively(files, { ...literal, query: "a\uFFFDb" })],
    ["a literal with a lone surrogate", false, () => scansNatively(files, { ...literal, query: "a\uD800b" })],
    ["a file the index wants a filter of, which this thread reads", false, () => scansNatively(files, literal, undefined, wanting("b.txt"))],
    ["a wanted file the trigram filter rules out", true, () => scansNatively(files, literal, (file) => file.path !== "b.txt", wanting("b.txt"))],
    ["a wanted file over the size limit", true, () => scansNatively([...files, { path: "big.txt", size: 1000, mtimeMs: 0 }], literal, undefined, wanting("big.txt"))],
    ["no addon", false, () => ((process.env.RLMKIT_NATIVE_ADDON = "0"), scansNatively(files, literal))],
  ])("on the native addon's threads for %s: %s", ([, expected, decide]) => {
    expect(decide()).toBe(expected);
  });

  test("a first literal search of more bytes than the calling thread reads itself runs there on the addon, not on the workers", async () => {
    const engine = new TextSearchEngine(5_000);
    try {
      // 80 files of 1 MiB: past the 64 MiB the calling thread reads itself.
      const many: SearchFile[] = Array.from({ length: 80 }, (_, index) => ({ path: `f${index}.txt`, size: 1 << 20, mtimeMs: 0 }));
      const request = { ...literal, maxFileBytes: 1 << 20 };
      expect(engine.runsOnWorkers(many, request)).toBe(false);
      expect(engine.runsOnWorkers(many, { ...request, query: "(?:abc+)+d", regex: true })).toBe(true);
      expect(engine.runsOnWorkers(many, request, undefined, wanting("f3.txt"))).toBe(true);
      process.env.RLMKIT_NATIVE_ADDON = "0";
      expect(engine.runsOnWorkers(many, request)).toBe(true);
    } finally {
      await engine.close();
    }
  });
});
