/**
 * A regex search looks for the pattern's required literal first and runs the
 * pattern only on the lines that hold it, so the literal must be in every line
 * the pattern matches. A table pins what is extracted; a property test checks
 * the guarantee on generated patterns and lines.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { requiredAlternatives, requiredLiteral, requiredRuns } from "../../src/nav/regex-literal.ts";

describe("requiredLiteral", () => {
  test.for([
    [String.raw`^\s*class\s+\w+Error\b`, "class"],
    [String.raw`def\s+\w+\(self`, "(self"],
    [String.raw`import\s+(os|sys)\b`, "import"],
    [String.raw`\bhttps?://\w+`, "http"],
    ["colou?r", "colo"],
    ["abc*def", "def"],
    ["ab{0,2}cde", "cde"],
    ["abc{2}", "abc"],
    [String.raw`x\.y\.zz`, "x.y.zz"],
    [String.raw`foo\x41bar`, "fooAbar"],
    ["[abc]def[g]", "def"],
    ["(abc|def)ghi", "ghi"],
    ["a.*?bcdef", "bcdef"],
    // `\c` without a letter is a backslash and a `c` (Annex B), not a control character.
    [String.raw`ab\c-x`, "c-x"],
    // None: a top-level alternation, or nothing outside groups and classes.
    ["a|bcd", undefined],
    ["(abcdef)", undefined],
    [String.raw`\w+\s*`, undefined],
  ] as [string, string | undefined][])("%s → %s", ([pattern, literal]) => {
    expect(requiredLiteral(pattern)).toBe(literal);
  });

  test.for([
    [String.raw`^\s*class\s+\w+Error\b`, ["class", "Error"]],
    ["abcd?xyz", ["abc", "xyz"]],
    ["(abc|def)ghi(jkl)+mno", ["ghi", "mno"]],
    ["abc|xyz", undefined],
    [String.raw`a\.b{2}c`, ["a.b", "c"]],
  ] as [string, string[] | undefined][])("requiredRuns(%s) → %j", ([pattern, runs]) => {
    expect(requiredRuns(pattern)?.filter((run) => run.length > 0)).toEqual(runs);
  });

  test.for([
    [String.raw`import\s+(os|sys)\b`, [["os", "sys"]]],
    ["(?:get|set)_(\\w+)", [["get", "set"]]],
    ["(?<verb>get|set)x(a|b)+", [["get", "set"], ["a", "b"]]],
    // Not required (a quantifier that allows none), not plain, nested, inside a class, or a lookaround: none.
    ["x(os|sys)?", []],
    ["x(os|sys)*", []],
    ["x(os|sys){0,2}", []],
    ["(os|s.s)", []],
    ["((os|sys)x)", []],
    ["x[(os|sys)]", []],
    ["x(?=os|sys)", []],
    ["x(?<!os|sys)", []],
    ["(os)", []],
    // A top-level alternation: a match needs no group at all.
    ["(os|sys)|y", []],
  ] as [string, string[][]][])("requiredAlternatives(%s) → %j", ([pattern, groups]) => {
    expect(requiredAlternatives(pattern)).toEqual(groups);
  });

  test("every line a generated pattern matches contains its literal (case-sensitive, and ignoring case)", () => {
    const piece = fc.constantFrom("ab", "cd", "abc", "x", "y?", "b*", "c+", "d{0,2}", "e{2}", String.raw`\s*`, String.raw`\w+`, String.raw`\.`, ".", "[ab]", "[^c]", "(ab|cd)", "(?:x)?", "^", "$", String.raw`\b`, "|", String.raw`\c-`, String.raw`\cA`, "(?:ab|x)", "(a|bc)+", "(b|cd)?", "(?<n>x|y)", "((a|b)c)");
    const pattern = fc.array(piece, { minLength: 1, maxLength: 7 }).map((pieces) => pieces.join("")).filter((source) => {
      try {
        new RegExp(source);
        return true;
      } catch {
        return false;
      }
    });
    const line = fc.string({ unit: fc.constantFrom(..."abcdexyABCDE. _\\-\x01"), maxLength: 24 });
    fc.assert(
      fc.property(pattern, fc.array(line, { minLength: 1, maxLength: 20 }), (source, lines) => {
        // Every run, the longest among them.
        for (const literal of requiredRuns(source) ?? []) {
          for (const text of lines) {
            if (new RegExp(source).test(text)) expect(text).toContain(literal);
            if (new RegExp(source, "i").test(text)) expect(text.toLowerCase()).toContain(literal.toLowerCase());
          }
        }
        // One of each required group's alternatives.
        for (const alternatives of requiredAlternatives(source)) {
          for (const text of lines) {
            if (new RegExp(source).test(text)) expect(alternatives.some((alternative) => text.includes(alternative))).toBe(true);
            if (new RegExp(source, "i").test(text)) expect(alternatives.some((alternative) => text.toLowerCase().includes(alternative.toLowerCase()))).toBe(true);
          }
        }
        expect(requiredLiteral(source) === undefined || (requiredRuns(source) ?? []).includes(requiredLiteral(source)!)).toBe(true);
      }),
      { numRuns: 3_000 },
    );
  });
});
