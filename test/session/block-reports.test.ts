import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { defineTool, runSession, ScriptedModel, type SessionEvent } from "../../src/index.ts";
import { js, feedbackOf } from "../support/scripted-replies.ts";
import { tempDir } from "../support/temp-dir.ts";

const lookupTool = defineTool({
  name: "test_lookup",
  description: "Looks a key up.",
  parameters: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
  handler: ({ key }) => ({ key, found: null }),
});

/** 1-based column of the first `marker` on `line` (1-based) of `code`. */
function columnOf(code: string, line: number, marker: string): number {
  return code.split("\n")[line - 1]!.indexOf(marker) + 1;
}

describe("error positions after an intercepted call on the same line", () => {
  test.each([
    // The injected name is shorter than the call: columns after it moved left before they were mapped back.
    { label: "a TypeError after a long call", code: 'const hit = test_lookup("a-key-long-enough-to-shift-every-column-after-it"); hit.found.size', line: 1, marker: ".size" },
    { label: "a throw after an awaited call", code: 'const hit = await test_lookup("k"); throw new Error("boom")', line: 1, marker: "new Error" },
    { label: "a ReferenceError on the second line after a call spanning two lines", code: 'const hit = test_lookup(\n  "k"); missingName + 1', line: 2, marker: "missingName" },
    { label: "two calls on one line", code: 'const a = test_lookup("first-key-that-is-long"); const b = test_lookup("second-key-that-is-long"); a.found.x', line: 1, marker: ".x" },
  ])("$label: line and column are the model's own", async ({ code, line, marker }) => {
    const model = new ScriptedModel([js(code), js('FINAL("done")')]);
    const events: SessionEvent[] = [];
    await runSession({ question: "q", model, tools: [lookupTool], onEvent: (event) => events.push(event) });
    const result = events.find((event) => event.type === "sandbox_result");
    const expected = columnOf(code, line, marker);
    // V8 points at the property access itself (`.size`) or one past its dot; either way within the marker.
    expect(result).toMatchObject({ error: { line } });
    const column = (result as { error: { column: number } }).error.column;
    expect(column).toBeGreaterThanOrEqual(expected);
    expect(column).toBeLessThanOrEqual(expected + 1);
    expect(feedbackOf(model, 1)).toContain(`(line ${line}, column ${column})`);
  });

  test("the column equals the one reported for the same line without a tool call", async () => {
    const withCall = 'const hit = test_lookup("a-key-long-enough-to-shift-every-column-after-it"); hit.found.size';
    const withoutCall = 'const hit = ({ key: "a-key-long-enough-to-shift-every-column-after-it", found: null }); hit.found.size';
    const columnFor = async (code: string): Promise<number> => {
      const events: SessionEvent[] = [];
      await runSession({ question: "q", model: new ScriptedModel([js(code), js('FINAL("done")')]), tools: [lookupTool], onEvent: (event) => events.push(event) });
      const result = events.find((event) => event.type === "sandbox_result") as { error: { column: number } };
      return result.error.column;
    };
    const shift = withoutCall.indexOf("hit.found.size") - withCall.indexOf("hit.found.size");
    expect(await columnFor(withCall)).toBe((await columnFor(withoutCall)) - shift);
  });
});

describe("what leaves the guest is capped", () => {
  test("three blocks throwing a 10 MB message leave a small trace and a bounded feedback", async () => {
    const tracePath = join(tempDir("rlmkit-caps-"), "trace.jsonl");
    const thrower = js('throw new Error("m".repeat(10_000_000))');
    const model = new ScriptedModel([thrower, thrower, thrower, js('FINAL("done")')]);
    const result = await runSession({ question: "q", model, tracePath });
    expect(result).toMatchObject({ status: "final", answer: "done" });
    expect(statSync(tracePath).size).toBeLessThan(200_000);
    expect(feedbackOf(model, 1).length).toBeLessThan(5_000);
    expect(feedbackOf(model, 1)).toContain("[cut: 10,000,000 characters in all]");
  });

  test("a large FINAL answer is returned whole, but events and the trace carry a cut copy", async () => {
    const tracePath = join(tempDir("rlmkit-caps-"), "trace.jsonl");
    const events: SessionEvent[] = [];
    const model = new ScriptedModel([js('FINAL("a".repeat(5_000_000))')]);
    const result = await runSession({ question: "q", model, tracePath, onEvent: (event) => events.push(event) });
    expect((result.answer as string).length).toBe(5_000_000);
    for (const type of ["final", "session_end"] as const) {
      const event = events.find((candidate) => candidate.type === type) as { answer: string; answerChars: number; answerTruncated: boolean };
      expect(event.answerTruncated).toBe(true);
      expect(event.answerChars).toBe(5_000_002);
      expect(event.answer.length).toBeLessThanOrEqual(100_000);
    }
    expect(statSync(tracePath).size).toBeLessThan(300_000);
    expect(readFileSync(tracePath, "utf8")).toContain('"answerTruncated":true');
  });

  test("a tool failing with a 5 MB message is reported in a bounded event and feedback", async () => {
    const failing = defineTool({ name: "test_fail", description: "Fails.", parameters: { type: "object", properties: {} }, handler: () => { throw new Error("e".repeat(5_000_000)); } });
    const events: SessionEvent[] = [];
    const model = new ScriptedModel([js("const r = test_fail()"), js('FINAL("done")')]);
    await runSession({ question: "q", model, tools: [failing], onEvent: (event) => events.push(event) });
    const call = events.find((event) => event.type === "tool_call") as { error: string };
    expect(call.error.length).toBeLessThan(5_000);
    expect(feedbackOf(model, 1).length).toBeLessThan(5_000);
  });
});
