import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { literalTrigrams, mayHold, mayHoldAt, trigramFilter } from "../../src/nav/trigram-filter.ts";

// Text with ASCII letters in both cases, punctuation, line breaks and a few letters beyond ASCII.
const text = fc.string({ unit: fc.constantFrom(..."abcXYZ_.( )\n\tσΣé", "日"), maxLength: 400 });

describe("the trigram filter of a file", () => {
  test("never rules out a file that holds the literal, with or without case", () => {
    fc.assert(
      // Padding before the text gives filters of every size, from the smallest to the largest.
      fc.property(text, fc.nat(), fc.integer({ min: 3, max: 30 }), fc.array(fc.boolean(), { maxLength: 30 }), fc.constantFrom(0, 3_000, 40_000, 200_000), (content, start, length, flips, padding) => {
        const from = content.length === 0 ? 0 : start % content.length;
        const literal = content.slice(from, from + length);
        const filter = trigramFilter(Buffer.from("0123456789".repeat(padding / 10) + content, "utf8"));
        const exact = literalTrigrams(literal, true);
        if (exact) expect(mayHold(filter, exact)).toBe(true);
        // The same literal with its ASCII letters' case flipped, searched without case.
        const flipped = [...literal].map((char, index) => (flips[index] && /[a-zA-Z]/.test(char) ? (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase()) : char)).join("");
        const folded = literalTrigrams(flipped, false);
        if (folded) expect(mayHold(filter, folded)).toBe(true);
      }),
    );
  });

  test("rules out a file without the literal", () => {
    const filter = trigramFilter(Buffer.from("def retry(self):\n    return self.backoff()\n"));
    expect(mayHold(filter, literalTrigrams("subprocess.Popen", true)!)).toBe(false);
    expect(mayHold(filter, literalTrigrams("RETRY(SELF)", false)!)).toBe(true);
  });

  test.each([
    ["ab", true, "a literal under three bytes"],
    ["σοφία", false, "letters beyond ASCII, without case"],
    ["a\uFFFDb", true, "the replacement character"],
    ["\uD800ab", true, "a lone surrogate"],
  ])("cannot tell for %j (case: %s): %s", (literal, caseSensitive) => {
    expect(literalTrigrams(literal, caseSensitive)).toBeUndefined();
  });

  test("is about half a bit per byte, from 128 bytes to 8 KiB", () => {
    expect(trigramFilter(new Uint8Array(10)).length).toBe(128);
    expect(trigramFilter(new Uint8Array(40_000)).length).toBe(4096);
    expect(trigramFilter(new Uint8Array(1_000_000)).length).toBe(8192);
  });

  test("gives the same answer for a filter tested in place among others (the cache's filter file) as for the filter alone", () => {
    fc.assert(
      // The literal is cut from one of the texts, so some filters hold it and the others mostly do not.
      fc.property(fc.array(fc.string({ minLength: 3, maxLength: 3_000 }), { minLength: 1, maxLength: 4 }), fc.nat(), fc.nat(), fc.integer({ min: 3, max: 8 }), (texts, which, at, length) => {
        const source = texts[which % texts.length]!;
        const from = at % (source.length - 2);
        const literal = source.slice(from, from + length);
        const filters = texts.map((text) => trigramFilter(Buffer.from(text, "utf8")));
        const file = Buffer.concat([Buffer.from([0xff, 0x00, 0xff]), ...filters]);
        const trigrams = literalTrigrams(literal, true);
        fc.pre(trigrams !== undefined);
        let offset = 3;
        for (const filter of filters) {
          expect(mayHoldAt(file, offset, filter.length, trigrams)).toBe(mayHold(filter, trigrams));
          offset += filter.length;
        }
        // The text it was cut from may hold it, tested either way.
        const own = texts.indexOf(source);
        expect(mayHoldAt(file, 3 + filters.slice(0, own).reduce((sum, filter) => sum + filter.length, 0), filters[own]!.length, trigrams)).toBe(true);
      }),
    );
  });
});
