import { describe, expect, test } from "vitest";
import { findPrice, priceCall } from "../../src/index.ts";

describe("priceCall", () => {
  test.each([
    ["a default price", "gpt-4o-mini", {}, { costUsd: (1_000_000 * 0.15 + 1_000_000 * 0.6) / 1_000_000, priced: true }],
    ["a provider prefix is stripped", "openai/gpt-4o-mini", {}, { costUsd: 0.75, priced: true }],
    ["a caller price overrides the default", "gpt-4o-mini", { "gpt-4o-mini": { inputPerMillion: 1, outputPerMillion: 1 } }, { costUsd: 2, priced: true }],
    ["an unknown model costs 0 and says so", "qwen2.5-coder:7b", {}, { costUsd: 0, priced: false }],
    ["inherited object keys are not prices", "constructor", {}, { costUsd: 0, priced: false }],
  ])("%s", (_label, model, prices, expected) => {
    expect(priceCall(model, { promptTokens: 1_000_000, completionTokens: 1_000_000 }, prices)).toEqual(expected);
  });

  test("findPrice prefers the exact id over the short one", () => {
    expect(findPrice("acme/gpt-4o", { "acme/gpt-4o": { inputPerMillion: 9, outputPerMillion: 9 } })).toEqual({ inputPerMillion: 9, outputPerMillion: 9 });
  });
});
