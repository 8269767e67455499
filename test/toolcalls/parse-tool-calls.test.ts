import { describe, expect, test } from "vitest";
import { createToolCallParser, parseToolCalls } from "../../src/index.ts";
import { JSON_ROWS, TAGGED_ROWS, TOOLS } from "./tool-call-tables.ts";

describe.each([
  { protocol: "json" as const, rows: JSON_ROWS },
  { protocol: "tagged" as const, rows: TAGGED_ROWS },
])("parseToolCalls, $protocol protocol", ({ protocol, rows }) => {
  test.for(rows)("$label", ({ text, events, keepReasoning }) => {
    const parsed = parseToolCalls(text, { protocol, tools: TOOLS, keepReasoning });
    expect(parsed).toEqual(events);
    // Nothing is lost: the text and the raw calls give back the reply.
    expect(parsed.map((event) => (event.type === "text" ? event.text : event.raw)).join("")).toBe(text);
  });
});

describe("createToolCallParser", () => {
  test("emits text as soon as it cannot be part of a call, and each call as soon as it closes", () => {
    const parser = createToolCallParser({ protocol: "json", tools: TOOLS });
    expect(parser.push("Searching now")).toEqual([{ type: "text", text: "Searching now" }]);
    expect(parser.push(' {"tool": "nav_search", ')).toEqual([{ type: "text", text: " " }]);
    expect(parser.push('"arguments": {"query": "x"}')).toEqual([]);
    expect(parser.push("} and then")).toEqual([
      { type: "tool_call", name: "nav_search", arguments: { query: "x" }, raw: '{"tool": "nav_search", "arguments": {"query": "x"}}' },
      { type: "text", text: " and then" },
    ]);
    expect(parser.end()).toEqual([]);
  });

  test("holds back only what could still start a call or a fake result", () => {
    const tagged = createToolCallParser({ protocol: "tagged", tools: TOOLS });
    expect(tagged.push("see <nav_")).toEqual([{ type: "text", text: "see " }]);
    expect(tagged.push("x> and Tool Res")).toEqual([{ type: "text", text: "<nav_x> and " }]);
    expect(tagged.push("ponse")).toEqual([{ type: "text", text: "Tool Response" }]);
    expect(tagged.end()).toEqual([]);
  });

  test("refuses a push after end, and an unknown protocol", () => {
    const parser = createToolCallParser({ protocol: "json", tools: TOOLS });
    parser.end();
    expect(() => parser.push("x")).toThrow(/push\(\) after end\(\)/);
    expect(() => createToolCallParser({ protocol: "xml" as never, tools: TOOLS })).toThrow(/protocol must be "json" or "tagged", got "xml"/);
  });
});
