/**
 * A scan finds the same lines, columns and texts whether the text has its table of line
 * starts or not (the search workers make tables between searches, so a text is scanned
 * both ways in its life), and those are the first match of each line, found line by line.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { lineRegex, type LineRegex } from "../../src/nav/line-regex.ts";
import { addLineStarts, compileLinePattern, MatchSink, scanPlan, scanText, type ScannedText } from "../../src/nav/text-scan.ts";
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

describe("scanning a text", () => {
  test(
    "finds the same matches with and without its table of line starts, and case-sensitive ones line by line",
    () => {
      fc.assert(
        fc.property(text, fc.constantFrom(...QUERIES), fc.integer({ min: 1, max: 40 }), (source, query, wanted) => {
          const counted = scan({ text: source }, query, wanted);
          const entry: ScannedText = { text: source };
          addLineStarts(entry);
          expect(scan(entry, query, wanted)).toEqual(counted);
          // A text that makes its table at its first hit (a kept text that matched before) gives the same, and has its table after a hit.
          const onHit: ScannedText = { text: source, tableOnHit: true };
          const found = scan(onHit, query, wanted);
          expect(found).toEqual(counted);
          if (found.texts.length > 0) expect(onHit.lineStarts).toEqual(entry.lineStarts);
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
    const entry: ScannedText = { text: source };
    addLineStarts(entry);
    expect(entry.lineStarts).toEqual(Int32Array.from([0, 8, 11, 12, 19]));
    expect(scan(entry, query, 10)).toEqual(expected);
  });
});
