/**
 * Where a first search would run, as the engine tells before the walk: estimated from a
 * sample of the files' filter verdicts, and decided by testing every file near the bound.
 */
import { afterEach, describe, expect, test } from "vitest";
import { TextSearchEngine, type SearchFile } from "../../src/nav/text-search.ts";

const MB = 1024 * 1024;
const request = { regex: false, query: "needle", caseSensitive: true, maxFileBytes: MB };
const files = (count: number, size: number): SearchFile[] => Array.from({ length: count }, (_, index) => ({ path: `f${String(index).padStart(5, "0")}.py`, size, mtimeMs: 1 }));

let engine: TextSearchEngine;
afterEach(async () => {
  await engine.close();
});

describe("runsOnWorkers", () => {
  test.for([
    // [case, files, size, which may hold, on the workers, files tested]
    ["no file may hold the literal", 2_000, MB, () => false, false, "a sample"],
    ["2,000 MB may hold it", 2_000, MB, () => true, true, "a sample"],
    ["2 MB in all", 2_000, 1_000, () => true, false, "a sample"],
    // 100 files of 1 MB that may hold it: the sample of every 8th file sees 13 (an estimate of 104 MB), between the bounds.
    ["100 MB, near the bound", 2_000, MB, (index: number) => index < 100, true, "more than a sample"],
    ["60 MB, near the bound and under it", 2_000, MB, (index: number) => index < 60, false, "more than a sample"],
  ] as const)("%s", ([, count, size, holds, expected, tested]) => {
    engine = new TextSearchEngine(5_000, 1);
    const list = files(count, size);
    const asked = new Set<SearchFile>();
    const mayHold = (file: SearchFile) => (asked.add(file), holds(list.indexOf(file)));
    expect(engine.runsOnWorkers(list, request, mayHold)).toBe(expected);
    if (tested === "a sample") expect(asked.size).toBe(count / 8);
    else expect(asked.size).toBeGreaterThan(count / 8);
  });

  test("a regular expression that must run on the workers, or workers that hold the texts, need no test", () => {
    engine = new TextSearchEngine(5_000, 1);
    let asked = 0;
    expect(engine.runsOnWorkers(files(2_000, MB), { ...request, regex: true, query: "(a+)+b" }, () => (asked++, false))).toBe(true);
    expect(asked).toBe(0);
  });
});
