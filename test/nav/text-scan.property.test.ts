/**
 * A scan finds the same lines, columns and texts whether the text keeps a table of the line
 * starts earlier scans found or not (the search workers keep one per text, extended by each
 * scan as far as it goes), and those are the first match of each line, found line by line.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { lineRegex, type LineRegex } from "../../src/nav/line-regex.ts";
import { LineTable } from "../../src/nav/line-table.ts";
import { compileLinePattern, MatchSink, scanPlan, scanText, type ScannedText } from "../../src/nav/text-scan.ts";
import { fuzzParameters, fuzzTimeout } from "../fuzz/fuzz-settings.ts";

interface Query {
  readonly query: string;
  readonly regex: boolean;
  readonly caseSensitive: boolean;
}

const QUERIES: Query[] = [
  { query: "ab", regex: false, caseSensitive: true },
  { query: "self.", regex: false, caseSensitive: true },
  { query: "AB", regex: false, caseSensitive: false },
  { query: "a\\s*b", regex: true, caseSensitive: true },
  { query: "^\\s*self\\.", regex: true, caseSensitive: true },
  { query: "b$", regex: true, caseSensitive: true },
  { query: "[ab]{2}", regex: true, caseSensitive: false },
];

// Lines from pieces that make matches likely: the literals, spaces, tabs, carriage returns, letters beyond ASCII.
const line = fc.array(fc.constantFrom("a", "b", "ab", "A", "B", "self.", "se", "lf", " ", "\t", "\r", "é", "😀", "x"), { maxLength: 12 }).map((parts) => parts.join(""));
// Up to 30 lines, or up to 400 (past the line table's first size, so it grows).
const text = fc
  .tuple(fc.oneof(fc.array(line, { maxLength: 30 }), fc.array(line, { minLength: 100, maxLength: 400 })), fc.boolean())
  .map(([lines, trailing]) => lines.join("\n") + (trailing && lines.length > 0 ? "\n" : ""));

function scan(entry: ScannedText, query: Query, wanted: number): { meta: number[]; texts: string[] } {
  const pattern = query.regex ? lineRegex(query.query, query.caseSensitive) : undefined;
  if (pattern && "error" in pattern) throw new Error(pattern.error);
  const plan = scanPlan(query.query, query.caseSensitive, pattern ? compileLinePattern(pattern, false, true) : undefined, pattern?.literal);
  const sink = new MatchSink();
  scanText(7, entry, plan, sink, wanted);
  const result = sink.result();
  return { meta: [...result.meta], texts: result.texts };
}

// The first match of each line, line by line (a text ending in a line feed has no empty last line).
function lineByLine(source: string, query: Query, wanted: number): { meta: number[]; texts: string[] } {
  const lines = source.split("\n");
  if (source.endsWith("\n")) lines.pop();
  const meta: number[] = [];
  const texts: string[] = [];
  const pattern = query.regex ? (lineRegex(query.query, true) as LineRegex) : undefined;
  const perLine = pattern && new RegExp(pattern.source, pattern.flags.replace("g", ""));
  lines.forEach((raw, index) => {
    if (texts.length >= wanted) return;
    const column = perLine ? (perLine.exec(raw)?.index ?? -1) : raw.indexOf(query.query);
    if (column === -1) return;
    meta.push(7, index + 1, column + 1);
    texts.push(raw.endsWith("\r") ? raw.slice(0, -1) : raw);
  });
  return { meta, texts };
}

// Every line start the table knows is the text's.
function expectTrueStarts(source: string, table: LineTable): void {
  const starts = [0];
  for (let index = 0; index < source.length; index++) if (source[index] === "\n") starts.push(index + 1);
  const known = Array.from({ length: table.known }, (_, line) => table.start(line));
  expect(known).toEqual(starts.slice(0, table.known));
}

describe("scanning a text", () => {
  test(
    "finds the same matches with and without a table of line starts, however far earlier scans took the table, and case-sensitive ones line by line",
    () => {
      fc.assert(
        fc.property(text, fc.constantFrom(...QUERIES), fc.integer({ min: 1, max: 40 }), fc.constantFrom(...QUERIES), fc.integer({ min: 1, max: 40 }), (source, query, wanted, earlier, earlierWanted) => {
          const counted = scan({ text: source }, query, wanted);
          // A kept text: a first scan records the line starts it passes, another scan (another query, or fewer matches) took the table elsewhere first.
          const kept: ScannedText = { text: source, lines: new LineTable(source) };
          expect(scan(kept, query, wanted)).toEqual(counted);
          const other: ScannedText = { text: source, lines: new LineTable(source) };
          expect(scan(other, earlier, earlierWanted)).toEqual(scan({ text: source }, earlier, earlierWanted));
          expect(scan(other, query, wanted)).toEqual(counted);
          expect(scan(other, query, wanted)).toEqual(counted);
          expectTrueStarts(source, other.lines!);
          if (query.caseSensitive) expect(counted).toEqual(lineByLine(source, query, wanted));
        }),
        fuzzParameters(0.05, 300),
      );
    },
    fuzzTimeout(0.05, 30_000),
  );

  test("numbers lines from 1 and columns from 1 in code units, past a carriage return and letters beyond ASCII", () => {
    const source = "é😀 ab\r\nno\n\nxab ab\n";
    const query = { query: "ab", regex: false, caseSensitive: true };
    const expected = { meta: [7, 1, 5, 7, 4, 2], texts: ["é😀 ab", "xab ab"] };
    expect(scan({ text: source }, query, 10)).toEqual(expected);
    const entry: ScannedText = { text: source, lines: new LineTable(source) };
    expect(scan(entry, query, 10)).toEqual(expected);
    // The table went as far as the last match's line feed: the lines after it are not known yet.
    expect(entry.lines!.known).toBe(5);
    expect([0, 1, 2, 3, 4].map((line) => entry.lines!.start(line))).toEqual([0, 8, 11, 12, 19]);
    expect(scan(entry, query, 10)).toEqual(expected);
  });

  test("a pattern's scan records only the lines it matches, not every line holding its literal", () => {
    const source = "  self.a\nx self.\nfoo self.b\nself\n";
    const entry: ScannedText = { text: source, lines: new LineTable(source) };
    expect(scan(entry, { query: "^\\s*self\\.", regex: true, caseSensitive: true }, 10)).toEqual({ meta: [7, 1, 1], texts: ["  self.a"] });
    // The literal `self.` is on three lines; only the first matches, so the table knows lines 1 and 2 (where 1 ends).
    expect(entry.lines!.known).toBe(2);
    expectTrueStarts(source, entry.lines!);
  });

  test("a table records only as far as the scans went", () => {
    const source = "ab\nx\ny\nz\nab\nw\n";
    const entry: ScannedText = { text: source, lines: new LineTable(source) };
    expect(scan(entry, { query: "ab", regex: false, caseSensitive: true }, 1).meta).toEqual([7, 1, 1]);
    expect(entry.lines!.known).toBe(2);
    expect(scan(entry, { query: "ab", regex: false, caseSensitive: true }, 10).meta).toEqual([7, 1, 1, 7, 5, 1]);
    expect(entry.lines!.known).toBe(6);
    expectTrueStarts(source, entry.lines!);
  });
});
