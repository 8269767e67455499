import { describe, expect, test } from "vitest";
import { describeContext, describesNoContext } from "../../src/session/describe-context.ts";

describe("describeContext", () => {
  test.each([
    { label: "empty string", context: "", chars: "0", lines: "0" },
    { label: "one line without a break", context: "abc", chars: "3", lines: "1" },
    { label: "a trailing break starts an empty last line", context: "a\nb\n", chars: "4", lines: "3" },
    { label: "CRLF breaks count once each", context: "a\r\nb", chars: "4", lines: "2" },
    { label: "thousands are grouped", context: "x\n".repeat(1500), chars: "3,000", lines: "1,501" },
  ])("a string: size and line count ($label)", ({ context, chars, lines }) => {
    expect(describeContext(context)).toContain(`a string of ${chars} characters (${lines} lines)`);
    // The count is the one split would give.
    expect(Number(lines.replace(/,/g, ""))).toBe(context.length === 0 ? 0 : context.split("\n").length);
  });

  test.each([
    { label: "array", context: [1, "two", { three: 3 }], text: "an array of 3 items (21 characters as JSON). The first item is a number." },
    { label: "object", context: { a: [1, 2], b: "x" }, text: "an object with 2 keys (19 characters as JSON): `a` (an array of 2), `b` (a string of 1 characters)." },
    { label: "number", context: 42, text: "a number: 42." },
  ])("JSON values: shape and size ($label)", ({ context, text }) => {
    expect(describeContext(context)).toBe(`\`context\` is ${text}`);
  });

  test.each([
    { label: "a repository", inputs: { repo: true, tools: true }, mentions: /repository/, tools: true },
    { label: "tools only", inputs: { tools: true }, mentions: /use the tools/, tools: true },
    { label: "neither", inputs: {}, mentions: /answer from the question/, tools: false },
  ])("no context: the description names only what the session has ($label)", ({ inputs, mentions, tools }) => {
    const text = describeContext(undefined, inputs);
    expect(text).toMatch(mentions);
    expect(/tool/i.test(text)).toBe(tools);
    expect(describesNoContext(text)).toBe(true);
  });

  test.each([
    { label: "the text older traces recorded", description: "There is no `context` variable in this session; use the tools to find what you need.", none: true },
    { label: "a string context", description: describeContext("There is no `context` variable in this session"), none: false },
    { label: "an array context", description: describeContext([1]), none: false },
  ])("replay tells a context-free trace from its description ($label)", ({ description, none }) => {
    expect(describesNoContext(description)).toBe(none);
  });
});
