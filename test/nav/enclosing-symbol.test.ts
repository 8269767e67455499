import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { EnclosingSymbols } from "../../src/nav/enclosing-symbol.ts";
import { spansOf } from "../../src/nav/symbol-piece.ts";

type Span = readonly [startLine: number, endLine: number, name: string];

const spans = (list: readonly Span[]) => spansOf(list.map(([startLine, endLine, name]) => ({ startLine, endLine, name })));

// The rule, written as plainly as possible: paint each symbol's lines, by first line and the
// longest first (equal spans in their order), so that later symbols paint over earlier ones.
function painted(list: readonly Span[], line: number): string | null {
  const order = [...list].sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let name: string | null = null;
  for (const [start, end, symbol] of order) if (start <= line && line <= end) name = symbol;
  return name;
}

const SHAPE = spans([
  [1, 20, "Shape"],
  [3, 8, "Shape.area"],
  [10, 12, "Shape.__eq__"],
  [10, 11, "Shape.operator=="],
  [25, 30, "main"],
]);

describe("EnclosingSymbols", () => {
  test("names each line by the innermost symbol around it, and lines outside every symbol by none", () => {
    const enclosing = new EnclosingSymbols(SHAPE);
    const lines = [0, 1, 2, 3, 8, 9, 10, 11, 12, 20, 21, 25, 30, 31];
    expect(lines.map((line) => enclosing.nameAt(line))).toEqual([
      null,
      "Shape",
      "Shape",
      "Shape.area",
      "Shape.area",
      "Shape",
      // Two symbols start on line 10: the shorter is inside the longer.
      "Shape.operator==",
      "Shape.operator==",
      "Shape.__eq__",
      "Shape",
      null,
      "main",
      "main",
      null,
    ]);
    expect(new EnclosingSymbols(spans([])).nameAt(1)).toBeNull();
  });

  test("names what painting the spans names, for any spans (nested, overlapping, unsorted, equal) and lines in any order", () => {
    const span = fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 15 }));
    fc.assert(
      fc.property(fc.array(span, { maxLength: 12 }), fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 30 }), fc.boolean(), (starts, asked, ascending) => {
        const list = starts.map(([start, length], index): Span => [start, start + length, `s${index}`]);
        const enclosing = new EnclosingSymbols(spans(list));
        const lines = ascending ? [...asked].sort((a, b) => a - b) : asked;
        for (const line of lines) expect(enclosing.nameAt(line)).toBe(painted(list, line));
      }),
      { numRuns: 1000 },
    );
  });
});
