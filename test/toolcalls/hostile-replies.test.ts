import { describe, expect, test } from "vitest";
import { createToolCallParser, joinTextEvents, parseToolCalls, type ToolCallEvent, type ToolCallProtocol } from "../../src/index.ts";

// Replies shaped to make a parser slow. Each must give the whole-string events when streamed,
// and finish well inside the test's time limit (a parser that rescans would take minutes). What
// is held back is copied on every push, so the long held regions are fed 64 characters at a time.
const tools = [{ name: "nav_info" }];
const INFO = '{"tool": "nav_info", "arguments": {}}';

function streamed(text: string, protocol: ToolCallProtocol, size: number): ToolCallEvent[] {
  const parser = createToolCallParser({ protocol, tools });
  const events: ToolCallEvent[] = [];
  for (let at = 0; at < text.length; at += size) events.push(...parser.push(text.slice(at, at + size)));
  return joinTextEvents([...events, ...parser.end()]);
}

describe("replies shaped to make the parser slow", () => {
  test.for([
    { label: "20,000 nested objects never closed, then a call", protocol: "json" as const, text: '{"a": '.repeat(20_000) + INFO, calls: 0 },
    { label: "a call, then 20,000 nested objects never closed", protocol: "json" as const, text: INFO + '{"a": '.repeat(20_000), calls: 1 },
    { label: "a 200 KB line with a lone backtick, then a call", protocol: "json" as const, text: "a `b " + "word ".repeat(40_000) + "\n" + INFO, calls: 1, size: 64 },
    { label: "a 200 KB line that starts like a fence", protocol: "json" as const, text: "```json " + "x".repeat(200_000) + "\n" + INFO + "\n```", calls: 1, size: 64 },
    { label: "a tagged block never closed, 200 KB long", protocol: "tagged" as const, text: "<nav_info>" + "x".repeat(200_000), calls: 0, size: 64 },
    // Refused (nested deeper than MAX_ARGUMENT_DEPTH), so nothing downstream recurses 5,000 levels deep.
    { label: "5,000 levels of nesting in a call's arguments", protocol: "json" as const, text: '{"tool": "nav_info", "arguments": {"a": ' + "[".repeat(5_000) + "]".repeat(5_000) + "}}", calls: 0 },
    { label: "100,000 levels of nesting, never closed", protocol: "json" as const, text: '{"tool": "nav_info", "arguments": {"a": ' + "[".repeat(100_000) + "]".repeat(99_999) + "}}", calls: 0, size: 64 },
  ])("$label", { timeout: 20_000 }, ({ protocol, text, calls, size = 7 }) => {
    const whole = parseToolCalls(text, { protocol, tools });
    expect(whole.filter((event) => event.type === "tool_call")).toHaveLength(calls);
    expect(whole.map((event) => (event.type === "text" ? event.text : event.raw)).join("")).toBe(text);
    // Compared by their JSON text: a deep equality check would recurse as deep as the arguments.
    expect(JSON.stringify(streamed(text, protocol, size))).toBe(JSON.stringify(whole));
  });
});
