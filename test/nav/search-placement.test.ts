/**
 * Where a first search runs: on the calling thread while the files it must read come to at
 * most 64 MiB (files over the size limit, and those the filters rule out, not counted).
 */
import { describe, expect, test } from "vitest";
import { fitsHere } from "../../src/nav/search-placement.ts";
import type { SearchFile } from "../../src/nav/text-scan.ts";

const MB = 1024 * 1024;
const files = (count: number, size: number): SearchFile[] => Array.from({ length: count }, (_, index) => ({ path: `f${String(index).padStart(5, "0")}.py`, size, mtimeMs: 1 }));

describe("fitsHere", () => {
  test.for([
    // [case, files, size, size limit, which may hold, fits]
    ["64 files of 1 MiB: exactly the bound", 64, MB, MB, () => true, true],
    ["65 files of 1 MiB", 65, MB, MB, () => true, false],
    ["2,000 files of 1 MiB, none that may hold the literal", 2_000, MB, MB, () => false, true],
    ["2,000 files of 1 MiB, 60 that may hold it", 2_000, MB, MB, (index: number) => index % 33 === 0, true],
    ["2,000 files of 1 MiB, 100 that may hold it", 2_000, MB, MB, (index: number) => index % 20 === 0, false],
    ["100 files of 2 MiB over a 1 MiB limit: none is read", 100, 2 * MB, MB, () => true, true],
  ] as const)("%s", ([, count, size, limit, holds, fits]) => {
    const list = files(count, size);
    expect(fitsHere(list, limit, (file) => holds(list.indexOf(file)))).toBe(fits);
  });

  test("stops asking which files may hold the literal once the bound is passed (each answer may cost a stat)", () => {
    const list = files(1_000, MB);
    let asked = 0;
    expect(fitsHere(list, MB, () => (asked++, true))).toBe(false);
    expect(asked).toBe(65);
  });

  test("without filters, counts every file under the size limit", () => {
    expect(fitsHere(files(64, MB), MB)).toBe(true);
    expect(fitsHere([...files(64, MB), { path: "big.bin", size: 5 * MB, mtimeMs: 1 }], MB)).toBe(true);
    expect(fitsHere(files(65, MB), MB)).toBe(false);
  });
});
