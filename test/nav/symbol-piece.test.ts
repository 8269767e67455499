import { describe, expect, test } from "vitest";
import { DamagedCacheError } from "../../src/index.ts";
import type { NavSymbol } from "../../src/nav/symbol.ts";
import { decodeSpans, decodeSymbols, encodeSymbolPiece } from "../../src/nav/symbol-piece.ts";

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

describe("symbol pieces", () => {
  test("round-trip: the symbols, and their spans without them (tabs and line feeds inside are escaped)", () => {
    const piece = encodeSymbolPiece(SYMBOLS);
    expect(piece.includes(0x0a)).toBe(false);
    expect(decodeSymbols(piece)).toEqual(SYMBOLS);
    expect(decodeSpans(piece)).toEqual([1, 20, "Shape", 3, 8, "Shape.area", 10, 12, "Shape.__eq__", 10, 11, "Shape.operator==", 25, 30, "main"]);
    expect(decodeSpans(encodeSymbolPiece([]))).toEqual([]);
    expect(decodeSymbols(encodeSymbolPiece([]))).toEqual([]);
  });

  test("a piece without the separator is a damaged cache", () => {
    const piece = new TextEncoder().encode(JSON.stringify(SYMBOLS));
    expect(() => decodeSpans(piece)).toThrow(DamagedCacheError);
    expect(() => decodeSymbols(piece)).toThrow(DamagedCacheError);
  });
});
