import { describe, expect, test } from "vitest";
import { DEFAULT_SUBCALL_PROMPT_CHARS, subcallPromptChars } from "../../src/index.ts";

describe("subcallPromptChars", () => {
  test.each([
    ["unknown window", undefined, DEFAULT_SUBCALL_PROMPT_CHARS],
    ["8k tokens: half the window at 4 characters a token", 8_000, 16_000],
    ["128k tokens", 128_000, 256_000],
    ["a tiny window still gets 1,000", 100, 1_000],
    ["a nonsense window falls back to the default", -5, DEFAULT_SUBCALL_PROMPT_CHARS],
  ])("%s", (_label, window, expected) => {
    expect(subcallPromptChars(window)).toBe(expected);
  });
});
