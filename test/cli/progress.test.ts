import { describe, expect, test } from "vitest";
import type { SessionEvent } from "../../src/index.ts";
import { describeEvent } from "../../src/cli/describe-event.ts";
import { formatProgressLine, ProgressReporter } from "../../src/cli/progress.ts";

const base = { sessionId: "s", time: "2025-01-01T00:00:00.000Z", elapsedMs: 0, depth: 0 };
const event = (fields: Record<string, unknown>): SessionEvent => ({ ...base, ...fields }) as unknown as SessionEvent;

describe("describeEvent: the last action in a few words", () => {
  test.each([
    { label: "a model reply", input: { type: "model_call", iteration: 1, promptTokens: 400, completionTokens: 12, durationMs: 900 }, expected: "model replied in 0.9 s" },
    { label: "an intercepted tool call", input: { type: "tool_call", iteration: 1, index: 0, tool: "nav_search", args: ["retry"], line: 1, resultChars: 1234, durationMs: 3 }, expected: 'nav_search("retry") → 1,234 chars' },
    { label: "a failed tool call", input: { type: "tool_call", iteration: 1, index: 0, tool: "nav_read", args: ["x"], line: 1, error: "no symbol", durationMs: 3 }, expected: 'nav_read("x") failed' },
    { label: "long arguments are cut", input: { type: "tool_call", iteration: 1, index: 0, tool: "t", args: ["a".repeat(80)], line: 1, durationMs: 1 }, expected: `t("${"a".repeat(44)}...)` },
    { label: "a block's runtime error", input: { type: "sandbox_result", iteration: 2, index: 1, output: "", outputTruncated: false, error: { kind: "runtime", name: "TypeError", message: "x" }, reset: false, durationMs: 1 }, expected: "block 2 failed: TypeError" },
    { label: "a block's output", input: { type: "sandbox_result", iteration: 2, index: 0, output: "a\nb", outputTruncated: false, reset: false, durationMs: 1 }, expected: "block 1 printed 2 lines" },
    { label: "printed lines, each ended by a newline", input: { type: "sandbox_result", iteration: 2, index: 0, output: "a\nb\n", outputTruncated: false, reset: false, durationMs: 1 }, expected: "block 1 printed 2 lines" },
    { label: "one empty printed line", input: { type: "sandbox_result", iteration: 2, index: 0, output: "\n", outputTruncated: false, reset: false, durationMs: 1 }, expected: "block 1 printed 1 line" },
    { label: "a sub-call in a child session", input: { type: "subcall_start", depth: 1, iteration: 1, subcallId: "x", kind: "llm", model: "small", callDepth: 2, promptChars: 10 }, expected: "sub-call 1: llm_query → small" },
    { label: "the root's session_start (nothing to say)", input: { type: "session_start", question: "q", model: "m", context: "", tools: [], maxIterations: 20 }, expected: undefined },
  ])("$label", ({ input, expected }) => {
    expect(describeEvent(event(input))).toBe(expected);
  });
});

describe("progress output", () => {
  test("formats turn, action, tokens, cost and elapsed time", () => {
    expect(formatProgressLine({ iteration: 3, maxIterations: 20, lastAction: 'nav_search("retry")', tokens: 12345, costUsd: 0.0123, elapsedMs: 14_200 })).toBe('turn 3/20 · nav_search("retry") · 12,345 tokens · $0.0123 · 14.2 s');
    expect(formatProgressLine({ iteration: 0, maxIterations: 20, lastAction: "starting", tokens: 0, elapsedMs: 0 })).toBe("starting · 0 tokens · 0.0 s");
  });

  test("log mode writes one line per step and sums tokens and cost over root and sub-calls", () => {
    let written = "";
    let clock = 0;
    const reporter = new ProgressReporter({ stream: { write: (text: string) => ((written += text), true) } as unknown as NodeJS.WritableStream, mode: "log", now: () => clock });
    reporter.onEvent(event({ type: "session_start", question: "q", model: "m", context: "", tools: [], maxIterations: 5 }));
    clock = 1500;
    reporter.onEvent(event({ type: "model_call", iteration: 1, promptTokens: 100, completionTokens: 10, durationMs: 5, costUsd: 0.001 }));
    reporter.onEvent(event({ type: "code_block", iteration: 1, index: 0, language: "js", code: "", unclosed: false }));
    reporter.onEvent(event({ type: "subcall_end", iteration: 1, subcallId: "a", kind: "llm", model: "small", callDepth: 1, promptTokens: 50, completionTokens: 5, costUsd: 0.0005, durationMs: 1, cached: false }));
    reporter.stop();
    expect(written.split("\n")).toEqual(["  turn 1/5 · model replied in 0.0 s · 110 tokens · $0.0010 · 1.5 s", "  turn 1/5 · llm_query answered · 165 tokens · $0.0015 · 1.5 s", ""]);
    expect(reporter.state).toMatchObject({ iteration: 1, tokens: 165 });
  });
});
