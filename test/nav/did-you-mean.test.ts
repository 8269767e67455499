import { describe, expect, test } from "vitest";
import { didYouMean } from "../../src/nav/did-you-mean.ts";

describe("didYouMean", () => {
  test.each([
    { label: "a one-letter typo", target: "Parsr", names: ["Parser", "Printer", "parse"], expected: ["parse", "Parser"] },
    { label: "a name that contains the query", target: "retry", names: ["RetryPolicy", "Parser"], expected: ["RetryPolicy"] },
    // A method named `run` is inside "runSesion" but is not what was meant; the one-letter typo is.
    { label: "a short last segment inside the query is not a match", target: "runSesion", names: ["Outer.Inner.run", "ConcurrencyLimiter.run", "runSession"], expected: ["runSession"] },
    { label: "a last segment that covers most of the query still is", target: "Parser.parseExpr", names: ["Parser.parseExp"], expected: ["Parser.parseExp"] },
  ])("$label", ({ target, names, expected }) => {
    expect(didYouMean(target, names)).toEqual(expected);
  });
});
