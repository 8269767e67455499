/**
 * The search workers keep each text between searches with a table of the line starts its
 * scans have passed (line-table.ts), extended by each scan as far as it goes. However a text
 * is scanned (the first time, within the table, past it, read anew after an edit), every
 * search answers the lines a line-by-line scan of the files as they are finds.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEFAULT_MAX_FILE_BYTES } from "../../src/nav/index.ts";
import { TextSearchEngine, type SearchFile, type TextSearchRequest } from "../../src/nav/text-search.ts";

let root: string;
let engine: TextSearchEngine;

// A few thousand lines per file (past the line table's first size), with the searched words spread
// unevenly: `needle` often, `hay` in some files only, `late` only near each file's end.
function fileText(seed: number, lines: number): string {
  const out: string[] = [];
  let state = seed * 7919 + 1;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let line = 0; line < lines; line++) {
    const words = ["x", "def", "self.value", "  ", "return"];
    if (next() < 0.05) words.push("needle");
    if (seed % 2 === 0 && next() < 0.02) words.push("hay");
    if (line > lines - 20 && next() < 0.3) words.push("late");
    out.push(words.sort(() => next() - 0.5).join(" "));
  }
  return out.join("\n") + "\n";
}

async function currentFiles(): Promise<SearchFile[]> {
  const names = (await fs.readdir(root)).sort();
  return Promise.all(
    names.map(async (name) => {
      const stat = await fs.stat(path.join(root, name));
      return { path: name, size: stat.size, mtimeMs: stat.mtimeMs };
    }),
  );
}

// The first occurrence on each line, file by file in path order, from the files as they are now.
async function lineByLine(files: readonly SearchFile[], query: string): Promise<[string, number, number, string][]> {
  const found: [string, number, number, string][] = [];
  for (const file of files) {
    const lines = (await fs.readFile(path.join(root, file.path), "utf8")).split("\n");
    lines.pop();
    lines.forEach((line, index) => {
      const column = line.indexOf(query);
      if (column !== -1) found.push([file.path, index + 1, column + 1, line]);
    });
  }
  return found;
}

async function search(query: string): Promise<[string, number, number, string][]> {
  const files = await currentFiles();
  const request: TextSearchRequest = { root, query, regex: false, caseSensitive: true, limit: 1_000_000, maxFileBytes: DEFAULT_MAX_FILE_BYTES };
  const result = await engine.search(files, request);
  if ("error" in result) throw new Error(result.error);
  const found = result.build((file, line, column, text): [string, number, number, string] => [file, line, column, text]);
  expect(found).toEqual(await lineByLine(files, query));
  expect(found.length).toBeGreaterThan(0);
  return found;
}

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-line-tables-")));
  for (let file = 0; file < 6; file++) await fs.writeFile(path.join(root, `file${file}.py`), fileText(file, 1500 + file * 400));
  engine = new TextSearchEngine(20_000);
});

afterAll(async () => {
  await engine?.close();
  if (root) await fs.rm(root, { recursive: true, force: true });
});

describe("line numbers across the life of the workers' texts", () => {
  test("a first search, then the same search and others, then after edits", async () => {
    // The texts are read (by the calling thread, then the workers in the background).
    await search("needle");
    // The workers hold every text: their tables go as far as the last `needle`, then are used.
    await search("needle");
    await search("needle");
    // Lines within the tables and past them.
    await search("hay");
    await search("late");
    await search("late");
    await search("needle");
    // Lines added at the start of one file and removed from another: both are read anew, and no old table
    // may place their matches.
    const grown = path.join(root, "file2.py");
    await fs.writeFile(grown, "late needle hay\n".repeat(37) + (await fs.readFile(grown, "utf8")));
    const shrunk = path.join(root, "file4.py");
    await fs.writeFile(shrunk, (await fs.readFile(shrunk, "utf8")).split("\n").slice(101).join("\n"));
    const afterEdit = await search("late");
    expect(afterEdit.filter(([file]) => file === "file2.py").slice(0, 37).map(([, line]) => line)).toEqual(Array.from({ length: 37 }, (_, index) => index + 1));
    await search("late");
    await search("needle");
    await search("hay");
  });
});
