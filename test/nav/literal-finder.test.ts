import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { literalFinder } from "../../src/nav/literal-finder.ts";

// Few characters, so literals occur often: common ones (s, e, space), rarer ones (., P, _), a line feed and a surrogate pair.
const alphabet = fc.constantFrom("s", "e", "l", "f", ".", " ", "P", "_", "\n", "😀", "σ", "Σ");
const text = fc.array(alphabet, { maxLength: 200 }).map((chars) => chars.join(""));
const literal = fc.array(alphabet, { minLength: 1, maxLength: 6 }).map((chars) => chars.join(""));

describe("literalFinder", () => {
  test("finds what indexOf finds, from every position (case-sensitive)", () => {
    fc.assert(
      fc.property(text, literal, (haystack, needle) => {
        const find = literalFinder(needle, true);
        for (let from = 0; from <= haystack.length; from++) expect(find(haystack, from)).toBe(haystack.indexOf(needle, from));
      }),
      { numRuns: 500 },
    );
  });

  test.for([
    ["self.", "x = self.y; self.z"],
    ["subprocess.Popen", "import subprocess\np = subprocess.Popen(args)"],
    ["def ", "  def f(): pass"],
    ["._", "a._b"],
    ["s", "sss"],
  ])("a literal whose first character is common is found by a rarer one: %j", ([needle, haystack]) => {
    const find = literalFinder(needle!, true);
    for (let from = 0; from <= haystack!.length; from++) expect(find(haystack!, from)).toBe(haystack!.indexOf(needle!, from));
  });

  test("ignoring case, as JavaScript's i flag does (σ, ς and Σ match each other)", () => {
    const find = literalFinder("ΣELF.", false);
    expect(find("x = σelf.y", 0)).toBe(4);
    expect(find("x = ςELF.y", 0)).toBe(4);
    expect(find("x = self.y", 0)).toBe(-1);
    expect(find("a.b SELF. c Self.", 5)).toBe(-1);
    expect(literalFinder("self.", false)("a SELF. b Self.", 3)).toBe(10);
  });
});
