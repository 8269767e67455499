import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { DamagedCacheError } from "../../src/index.ts";
import type { NavSymbol } from "../../src/nav/symbol.ts";
import { decodeSpans, decodeSymbols, encodeSpans, encodeSymbolPiece, spansOf, spansPart, type SymbolSpans } from "../../src/nav/symbol-piece.ts";

const symbol = (name: string, startLine: number, endLine: number, extra: Partial<NavSymbol> = {}): NavSymbol => ({
  name,
  kind: "function",
  startLine,
  endLine,
  line: startLine,
  column: 1,
  signature: `def ${name}():`,
  ...extra,
});

const SYMBOLS: NavSymbol[] = [
  symbol("Shape", 1, 20, { kind: "class", signature: "class Shape:", doc: "A shape.\tWith a tab" }),
  symbol("Shape.area", 3, 8, { kind: "method", container: "Shape" }),
  symbol("Shape.__eq__", 10, 12, { kind: "method", container: "Shape", signature: "def __eq__(self, other):\n" }),
  symbol("Shape.operator==", 10, 11, { kind: "method", container: "Shape" }),
  symbol("main", 25, 30),
];

// Spans as plain rows, for comparing.
const rows = (spans: SymbolSpans) => Array.from({ length: spans.count }, (_, index) => [spans.start(index), spans.end(index), spans.name(index)]);

describe("symbol pieces", () => {
  test("round-trip: the symbols, and their spans without them", () => {
    const piece = encodeSymbolPiece(SYMBOLS);
    expect(decodeSymbols(piece)).toEqual(SYMBOLS);
    expect(rows(decodeSpans(spansPart(piece)))).toEqual([
      [1, 20, "Shape"],
      [3, 8, "Shape.area"],
      [10, 12, "Shape.__eq__"],
      [10, 11, "Shape.operator=="],
      [25, 30, "main"],
    ]);
    expect(rows(decodeSpans(spansPart(encodeSymbolPiece([]))))).toEqual([]);
    expect(decodeSymbols(encodeSymbolPiece([]))).toEqual([]);
  });

  test("spans round-trip whatever their names hold and their lines are (line feeds, NULs, emoji, accents, empty names, large numbers)", () => {
    // Names that start with U+FEFF too (a decoder that drops a byte order mark would lose it).
    const name = fc.oneof(fc.string({ unit: "grapheme", maxLength: 12 }), fc.string({ unit: "grapheme", maxLength: 4 }).map((rest) => `\uFEFF${rest}`));
    const line = fc.integer({ min: 0, max: 2 ** 31 - 1 });
    fc.assert(
      fc.property(fc.array(fc.record({ name, startLine: line, endLine: line }), { maxLength: 20 }), (symbols) => {
        const expected = symbols.map((symbol) => [symbol.startLine, symbol.endLine, symbol.name]);
        expect(rows(spansOf(symbols))).toEqual(expected);
        expect(rows(decodeSpans(encodeSpans(symbols)))).toEqual(expected);
        // At any alignment in a larger buffer (a piece of the cache's spans file).
        const bytes = encodeSpans(symbols);
        const shifted = new Uint8Array(bytes.length + 3);
        shifted.set(bytes, 3);
        expect(rows(decodeSpans(shifted.subarray(3)))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  test("a name that starts with U+FEFF, first or after an empty one, round-trips", () => {
    for (const names of [["\uFEFFm", "\uFEFFm.a"], ["", "\uFEFFx"]]) {
      const symbols = names.map((name, index) => ({ name, startLine: index + 1, endLine: index + 2 }));
      expect(rows(decodeSpans(encodeSpans(symbols)))).toEqual(symbols.map((symbol) => [symbol.startLine, symbol.endLine, symbol.name]));
    }
  });

  test.for([
    { label: "too short for a count", bytes: () => new Uint8Array([1, 0]) },
    { label: "a count past the bytes", bytes: () => encodeSpans(SYMBOLS).subarray(0, 40) },
    { label: "names cut short", bytes: () => encodeSpans(SYMBOLS).subarray(0, encodeSpans(SYMBOLS).length - 2) },
    { label: "bytes after the names", bytes: () => Uint8Array.from([...encodeSpans(SYMBOLS), 0x61]) },
    { label: "no symbols but bytes after the count", bytes: () => Uint8Array.from([0, 0, 0, 0, 0x61]) },
    { label: "JSON spans of an older cache", bytes: () => new TextEncoder().encode(JSON.stringify([1, 20, "Shape"])) },
  ])("spans that are not spans are a damaged cache: $label", ({ bytes }) => {
    expect(() => decodeSpans(bytes())).toThrow(DamagedCacheError);
  });

  test("a piece whose spans' length runs past it is a damaged cache", () => {
    const piece = encodeSymbolPiece(SYMBOLS);
    new DataView(piece.buffer).setUint32(0, piece.length, true);
    expect(() => spansPart(piece)).toThrow(DamagedCacheError);
    expect(() => decodeSymbols(piece)).toThrow(DamagedCacheError);
    expect(() => decodeSymbols(new Uint8Array([1]))).toThrow(DamagedCacheError);
  });
});
