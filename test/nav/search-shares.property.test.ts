/**
 * The files are shared out between the search workers by the hash of their paths, and the
 * workers' matches are merged back in file order: whatever the files, the number of workers
 * and the limit, the merged matches are the first `limit` of all matches in file order, each
 * file's path is listed once, and every file is in exactly one share, in the list's order.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { MATCH_STRIDE } from "../../src/nav/match-layout.ts";
import { mergeMatches, type WorkerMatches } from "../../src/nav/search-matches.ts";
import { partitionFiles } from "../../src/nav/search-shares.ts";
import type { SearchFile } from "../../src/nav/text-scan.ts";
import { fuzzParameters, fuzzTimeout } from "../fuzz/fuzz-settings.ts";

// Files in path order, each with the lines a search matched in it (in line order).
const repository = fc
  .uniqueArray(fc.stringMatching(/^[a-z]{1,3}(\/[a-z]{1,3}){0,2}\.py$/), { maxLength: 60 })
  .chain((paths) => fc.tuple(fc.constant(paths.sort()), fc.array(fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { maxLength: 6 }), { minLength: paths.length, maxLength: paths.length })))
  .map(([paths, lines]) => paths.map((path, index) => ({ file: { path, size: 100 + index, mtimeMs: index } as SearchFile, lines: lines[index]!.sort((a, b) => a - b) })));

// What a worker sends for its share: its first `wanted` matches, in its files' order.
function reply(files: readonly { file: SearchFile; lines: number[] }[], indexes: Int32Array, wanted: number): WorkerMatches {
  const meta: number[] = [];
  const texts: string[] = [];
  for (const index of indexes) {
    for (const line of files[index]!.lines) {
      if (texts.length >= wanted) break;
      meta.push(index, line, 1);
      texts.push(`${files[index]!.file.path}:${line}`);
    }
  }
  return { meta: Int32Array.from(meta), texts, count: texts.length, searchedFiles: indexes.length, changed: [] };
}

describe("sharing the files out and merging the matches", () => {
  test(
    "gives the first matches in file order, each path once, from shares that hold every file once",
    () => {
      fc.assert(
        fc.property(repository, fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 50 }), (files, workers, limit) => {
          const list = files.map(({ file }) => file);
          const shares = partitionFiles(list, workers);
          expect(shares.length).toBe(Math.max(1, Math.min(workers, list.length)));
          // Every file in exactly one share, each share in the list's order, with the file's own size and mtime.
          const seen = shares.flatMap((share) => [...share.indexes]).sort((a, b) => a - b);
          expect(seen).toEqual(list.map((_, index) => index));
          for (const share of shares) {
            expect([...share.indexes]).toEqual([...share.indexes].sort((a, b) => a - b));
            share.indexes.forEach((index, at) => {
              expect(share.paths[at]).toBe(list[index]!.path);
              expect(share.sizes[at]).toBe(list[index]!.size);
              expect(share.mtimes[at]).toBe(list[index]!.mtimeMs);
              expect(share.ctimes[at]).toBe(list[index]!.ctimeMs ?? Number.NaN);
            });
          }
          const merged = mergeMatches(list, shares.map((share) => reply(files, share.indexes, limit + 1)), limit);
          const all = files.flatMap(({ file, lines }) => lines.map((line) => [file.path, line, 1, `${file.path}:${line}`] as const));
          expect(merged.build((path, line, column, text) => [path, line, column, text] as const)).toEqual(all.slice(0, limit));
          expect(merged.truncated).toBe(all.length > limit);
          expect(merged.files().map((file) => file.path)).toEqual([...new Set(all.slice(0, limit).map(([path]) => path))]);
        }),
        fuzzParameters(0.05, 300),
      );
    },
    fuzzTimeout(0.05, 30_000),
  );

  test("a file goes to the same worker whatever list it is in", () => {
    const files = Array.from({ length: 400 }, (_, index) => ({ path: `pkg${index % 7}/module${index}.py`, size: 1000 + index, mtimeMs: index }));
    const ownerIn = (list: SearchFile[]) => {
      const owners = new Map<string, number>();
      partitionFiles(list, 2).forEach((share, worker) => share.paths.forEach((path) => owners.set(path, worker)));
      return owners;
    };
    const whole = ownerIn(files);
    const some = ownerIn(files.filter((_, index) => index % 3 === 0));
    for (const [path, worker] of some) expect(whole.get(path)).toBe(worker);
    // And the shares of a list this size are near even.
    const counts = [0, 1].map((worker) => [...whole.values()].filter((owner) => owner === worker).length);
    expect(Math.min(...counts)).toBeGreaterThan(150);
  });
});
