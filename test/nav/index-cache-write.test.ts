import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { withLazySymbols } from "../../src/nav/cached-record.ts";
import { readIndexCache, writeIndexCache } from "../../src/nav/index-cache.ts";
import { encodeSpans, symbolPiece } from "../../src/nav/symbol-piece.ts";
import { SymbolSpill } from "../../src/nav/symbol-store.ts";

let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-cache-write-"));
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const stored = (index: number) => ({ path: `f${String(index).padStart(3, "0")}.py`, size: index, mtimeMs: 1, ctimeMs: 1, language: "python", binary: false, large: false, lines: 1, symbolCount: 1 });

test("symbols read while the cache is written do not change what is written", async () => {
  // 200 pieces of about 40 KB in a spill (no spans, then the "symbols"): the 8 MB written cross the writer's 4 MiB chunks mid-piece.
  const spill = SymbolSpill.open(dir);
  const json = (index: number) => Buffer.from(JSON.stringify([`${index}:`.padEnd(40_000, String.fromCharCode(97 + (index % 26)))]));
  const pieces = Array.from({ length: 200 }, (_, index) => spill.append(symbolPiece(encodeSpans([]), json(index))));
  const records = pieces.map((at, index) => withLazySymbols(stored(index), { pieces: spill, at }));
  // Meanwhile, on every turn of the event loop, another record's symbols are read from the same spill.
  let writing = true;
  let reads = 0;
  const reader = (async () => {
    while (writing) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(withLazySymbols(stored(0), { pieces: spill, at: pieces[reads++ % pieces.length]! }).symbols).toHaveLength(1);
    }
  })();
  const file = path.join(dir, "cache.json");
  expect(await writeIndexCache(file, 1024 * 1024, [], records)).toBe(true);
  writing = false;
  await reader;
  expect(reads).toBeGreaterThan(0);
  spill.close();
  const cache = await readIndexCache(file, 1024 * 1024);
  try {
    expect(cache.records.size).toBe(200);
    for (const [index, record] of [...cache.records.values()].entries()) {
      expect(record.symbols as unknown).toEqual([`${index}:`.padEnd(40_000, String.fromCharCode(97 + (index % 26)))]);
    }
  } finally {
    cache.close();
  }
});
