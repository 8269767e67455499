import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import fsSync from "node:fs";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { SymbolFile, SymbolSpill } from "../../src/nav/symbol-store.ts";

let directory: string;

beforeAll(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-spill-"));
});

afterAll(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

// A piece of one byte repeated, distinct per piece (quick to make in megabytes).
function filled(index: number, length: number): Buffer {
  return Buffer.alloc(length, (index % 250) + 1);
}

// Distinct bytes per piece, so a piece read from the wrong place shows.
function piece(index: number, length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, at) => (index * 31 + at) % 251);
}

describe("SymbolSpill", () => {
  test("reads back every piece, written or still pending, across chunk boundaries", () => {
    const spill = SymbolSpill.open(directory);
    try {
      const lengths = [0, 1, 700_000, 5, 900_000, 64 * 1024, 3, 2_000_000, 17];
      const placed = lengths.map((length, index) => spill.append(piece(index, length)));
      // In reverse order: the last pieces are still in memory, the first are in the file.
      for (let index = lengths.length - 1; index >= 0; index--) {
        expect(Buffer.from(spill.read(placed[index]!)).equals(Buffer.from(piece(index, lengths[index]!)))).toBe(true);
      }
      expect(placed.map((at) => at.length)).toEqual(lengths);
    } finally {
      spill.close();
    }
  });

  test("leaves no file in its directory, and refuses reads once closed", async () => {
    const spill = SymbolSpill.open(directory);
    const at = spill.append(piece(1, 10));
    if (process.platform !== "win32") expect(await fs.readdir(directory)).toEqual([]);
    spill.close();
    expect(() => spill.read(at)).toThrow(/no longer available/);
    expect(await fs.readdir(directory)).toEqual([]);
  });

  test("falls back to the temporary directory when its own cannot be made", async () => {
    const blocked = path.join(directory, "file-not-dir");
    await fs.writeFile(blocked, "x");
    const spill = SymbolSpill.open(path.join(blocked, "cache"));
    try {
      const at = spill.append(piece(2, 100));
      expect(Buffer.from(spill.read(at)).equals(Buffer.from(piece(2, 100)))).toBe(true);
    } finally {
      spill.close();
    }
  });
});

describe("SymbolFile", () => {
  test("reads pieces by position, then the whole file once many are asked for, and refuses a file of another size or write", async () => {
    const file = path.join(directory, "cache.symbols");
    const lengths = Array.from({ length: 400 }, (_, index) => (index * 37) % 300);
    const pieces = lengths.map((length, index) => piece(index, length));
    const places: { offset: number; length: number }[] = [];
    const id = "write-1";
    let offset = id.length + 1;
    for (const bytes of pieces) {
      places.push({ offset, length: bytes.length });
      offset += bytes.length + 1;
    }
    await fs.writeFile(file, Buffer.concat([Buffer.from(`${id}\n`), ...pieces.flatMap((bytes) => [Buffer.from(bytes), Buffer.from("\n")])]));
    expect(SymbolFile.open(file, offset + 1, id)).toBeUndefined();
    expect(SymbolFile.open(file, offset, "write-2")).toBeUndefined();
    expect(SymbolFile.open(path.join(directory, "missing.symbols"), 0, id)).toBeUndefined();
    const symbols = SymbolFile.open(file, offset, id)!;
    try {
      // More reads than are made one by one: the later ones come from the whole file.
      for (let round = 0; round < 2; round++) {
        places.forEach((at, index) => expect(Buffer.from(symbols.read(at)).equals(Buffer.from(pieces[index]!))).toBe(true));
      }
    } finally {
      symbols.close();
    }
    expect(() => symbols.read(places[0]!)).toThrow(/no longer available/);
    await fs.rm(file);
  });

  test.for([
    // One read of a piece costs about as much as reading 64 KiB more at once: a 300 KB file is read whole after 5 pieces.
    { label: "a small file, after one piece per 64 KiB", pieces: 300, pieceBytes: 1000, oneByOne: 5 },
    // At most 256 pieces one by one, however large the file.
    { label: "a large file, after 256 pieces", pieces: 600, pieceBytes: 30_000, oneByOne: 256 },
  ])("is read whole $label", async ({ pieces: count, pieceBytes, oneByOne }) => {
    const file = path.join(directory, `whole-${count}.symbols`);
    const id = "write-1";
    const places: { offset: number; length: number }[] = [];
    let offset = id.length + 1;
    const parts: Buffer[] = [Buffer.from(`${id}\n`)];
    for (let index = 0; index < count; index++) {
      places.push({ offset, length: pieceBytes });
      parts.push(filled(index, pieceBytes), Buffer.from("\n"));
      offset += pieceBytes + 1;
    }
    await fs.writeFile(file, Buffer.concat(parts));
    const symbols = SymbolFile.open(file, offset, id)!;
    const reads = vi.spyOn(fsSync, "readSync");
    try {
      places.slice(0, oneByOne).forEach((at, index) => expect(Buffer.from(symbols.read(at)).equals(filled(index, pieceBytes))).toBe(true));
      expect(reads).toHaveBeenCalledTimes(oneByOne);
      // The next piece reads the file whole; every piece after it, and any asked again, comes from memory.
      expect(Buffer.from(symbols.read(places[oneByOne]!)).equals(filled(oneByOne, pieceBytes))).toBe(true);
      const afterWhole = reads.mock.calls.length;
      expect(afterWhole).toBeGreaterThan(oneByOne);
      expect(reads.mock.calls.slice(oneByOne).reduce((bytes, call) => bytes + ((call as unknown[])[3] as number), 0)).toBe(offset);
      places.forEach((at, index) => expect(Buffer.from(symbols.read(at)).equals(filled(index, pieceBytes))).toBe(true));
      expect(reads.mock.calls.length).toBe(afterWhole);
    } finally {
      reads.mockRestore();
      symbols.close();
      await fs.rm(file);
    }
  });
});
