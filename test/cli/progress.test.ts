import { describe, expect, test } from "vitest";
import type { SessionEvent } from "../../src/index.ts";
import { describeEvent } from "../../src/cli/describe-event.ts";
import { formatProgressLine, ProgressReporter } from "../../src/cli/progress.ts";
import { formatCost, formatSeconds, formatTokens } from "../../src/cli/format-usage.ts";

const base = { sessionId: "s", time: "2025-01-01T00:00:00.000Z", elapsedMs: 0, depth: 0 };
const event = (fields: Record<string, unknown>): SessionEvent => ({ ...base, ...fields }) as unknown as SessionEvent;

describe("describeEvent: the last action in a few words", () => {
  test.each([
    { label: "a model reply", input: { type: "model_call", iteration: 1, promptTokens: 400, completionTokens: 12, durationMs: 900 }, expected: "model replied in 0.9 s" },
    { label: "a reply cut at the token limit names the flag", input: { type: "model_call", iteration: 1, promptTokens: 400, completionTokens: 4096, durationMs: 30_000, finishReason: "length" }, expected: "model replied in 30.0 s, cut at the token limit (--max-tokens)" },
    { label: "a compacted history", input: { type: "history_compacted", iteration: 9, compactedTurns: 6, newlyCompacted: 2, tokensBefore: 12_000, tokensAfter: 7_100, budgetTokens: 10_000, clippedMessages: 0, droppedRecords: 0 }, expected: "history compacted to fit the context window: 6 turns summarized, ~12,000 → ~7,100 tokens" },
    { label: "an intercepted tool call", input: { type: "tool_call", iteration: 1, index: 0, tool: "nav_search", args: ["retry"], line: 1, resultChars: 1234, durationMs: 3 }, expected: 'nav_search("retry") → 1,234 chars' },
    { label: "a failed tool call", input: { type: "tool_call", iteration: 1, index: 0, tool: "nav_read", args: ["x"], line: 1, error: "no symbol", durationMs: 3 }, expected: 'nav_read("x") failed' },
    { label: "long arguments are cut", input: { type: "tool_call", iteration: 1, index: 0, tool: "t", args: ["a".repeat(80)], line: 1, durationMs: 1 }, expected: `t("${"a".repeat(44)}...)` },
    { label: "a block's runtime error", input: { type: "sandbox_result", iteration: 2, index: 1, output: "", outputTruncated: false, error: { kind: "runtime", name: "TypeError", message: "x" }, reset: false, durationMs: 1 }, expected: "block 2 failed: TypeError" },
    { label: "a block's output", input: { type: "sandbox_result", iteration: 2, index: 0, output: "a\nb", outputTruncated: false, reset: false, durationMs: 1 }, expected: "block 1 printed 2 lines" },
    { label: "printed lines, each ended by a newline", input: { type: "sandbox_result", iteration: 2, index: 0, output: "a\nb\n", outputTruncated: false, reset: false, durationMs: 1 }, expected: "block 1 printed 2 lines" },
    { label: "one empty printed line", input: { type: "sandbox_result", iteration: 2, index: 0, output: "\n", outputTruncated: false, reset: false, durationMs: 1 }, expected: "block 1 printed 1 line" },
    { label: "a sub-call in a child session", input: { type: "subcall_start", depth: 1, iteration: 1, subcallId: "x", kind: "llm", model: "small", callDepth: 2, promptChars: 10 }, expected: "sub-call 1: llm_query → small" },
    { label: "a request with its time-out and the flag that changes it", input: { type: "model_request", iteration: 1, model: "m", attempt: 1, maxAttempts: 4, timeoutMs: 120_000 }, expected: "waiting for the model (time-out 120 s, --request-timeout-ms)" },
    { label: "a retried request", input: { type: "model_request", iteration: 1, model: "m", attempt: 2, maxAttempts: 4, timeoutMs: 2_500 }, expected: "waiting for the model, attempt 2/4 (time-out 2.5 s, --request-timeout-ms)" },
    { label: "a retry after an HTTP status, with the server's wait", input: { type: "model_retry", iteration: 1, model: "m", attempt: 2, maxAttempts: 6, failure: "status", status: 503, delayMs: 15_000, message: "x" }, expected: "retry 2/5 after 503, waiting 15 s" },
    { label: "a retry after a time-out names the flag", input: { type: "model_retry", iteration: 1, model: "m", attempt: 1, maxAttempts: 4, failure: "timeout", delayMs: 375, message: "x" }, expected: "retry 1/3 after the time-out (--request-timeout-ms), waiting 0.4 s" },
    { label: "a retry after a dropped connection", input: { type: "model_retry", iteration: 1, model: "m", attempt: 1, maxAttempts: 4, failure: "connection", delayMs: 1000, message: "x" }, expected: "retry 1/3 after a connection failure, waiting 1 s" },
    { label: "streamed output with reasoning", input: { type: "model_progress", iteration: 1, model: "m", attempt: 1, characters: 800, reasoningCharacters: 3200, estimatedTokens: 1000 }, expected: "model writing: ~1,000 tokens so far (~800 reasoning)" },
    { label: "streamed output without reasoning", input: { type: "model_progress", iteration: 1, model: "m", attempt: 1, characters: 40, reasoningCharacters: 0, estimatedTokens: 10 }, expected: "model writing: ~10 tokens so far" },
    { label: "a block shows its first line of code", input: { type: "code_block", iteration: 1, index: 0, language: "js", code: "\n  const hits = nav_search(\"retry\")\nprint(hits)", unclosed: false }, expected: 'running block 1: const hits = nav_search("retry")' },
    { label: "a protocol that degrades says why", input: { type: "protocol_degraded", iteration: 1, from: "native", to: "json", reason: "The model server at <url> does not take tools for model 'm' (400: m does not support tools).\nmore" }, expected: "protocol native → json: The model server at <url> does not take tools for model 'm' (400: m does not support tools)." },
    { label: "the root's session_start (nothing to say)", input: { type: "session_start", question: "q", model: "m", context: "", tools: [], maxIterations: 20 }, expected: undefined },
  ])("$label", ({ input, expected }) => {
    expect(describeEvent(event(input))).toBe(expected);
  });
});

describe("numbers for a person", () => {
  test.each([
    { label: "under a second", value: formatSeconds(375), expected: "0.4 s" },
    { label: "whole seconds drop the decimal", value: formatSeconds(1000), expected: "1 s" },
    { label: "from 10 s, whole seconds", value: formatSeconds(120_000), expected: "120 s" },
    { label: "measured tokens", value: formatTokens(12_345, false), expected: "12,345 tokens" },
    { label: "estimated tokens are marked", value: formatTokens(12_345, true), expected: "~12,345 tokens" },
    { label: "a known cost", value: formatCost(0.0123, true), expected: "$0.0123" },
    { label: "a local model: no price, no pretend $0.0000", value: formatCost(0, false), expected: "cost unknown" },
    { label: "some models priced, some not: a lower bound", value: formatCost(0.5, false), expected: "≥ $0.5000 (some models unpriced)" },
  ])("$label", ({ value, expected }) => {
    expect(value).toBe(expected);
  });
});

describe("progress output", () => {
  test("formats turn, action, tokens, cost and elapsed time", () => {
    expect(formatProgressLine({ iteration: 3, maxIterations: 20, lastAction: 'nav_search("retry")', tokens: 12345, costUsd: 0.0123, elapsedMs: 14_200 })).toBe('turn 3/20 · nav_search("retry") · 12,345 tokens · $0.0123 · 14.2 s');
    expect(formatProgressLine({ iteration: 0, maxIterations: 20, lastAction: "starting", tokens: 0, elapsedMs: 0 })).toBe("starting · 0 tokens · 0.0 s");
    expect(formatProgressLine({ iteration: 1, maxIterations: 20, lastAction: "model replied in 1.0 s", tokens: 500, tokensEstimated: true, costUnknown: true, elapsedMs: 1000 })).toBe("turn 1/20 · model replied in 1.0 s · ~500 tokens · cost unknown · 1.0 s");
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

/** A stream that keeps what is written, with a clock the test moves. */
function capture() {
  const stream = { written: "", isTTY: true, columns: 200, write: (text: string) => ((stream.written += text), true) };
  return stream;
}

describe("the live line while a model call is under way", () => {
  test("counts the wait up, a retry's wait down, and streamed tokens into the total", () => {
    const stream = capture();
    let clock = 0;
    const reporter = new ProgressReporter({ stream: stream as unknown as NodeJS.WritableStream, mode: "live", now: () => clock });
    reporter.onEvent(event({ type: "session_start", question: "q", model: "m", context: "", tools: [], maxIterations: 20 }));
    reporter.onEvent(event({ type: "model_request", iteration: 1, model: "m", attempt: 1, maxAttempts: 4, timeoutMs: 120_000 }));
    clock = 4_000;
    expect(reporter.state.lastAction).toBe("waiting for the model 4 s (time-out 120 s, --request-timeout-ms)");
    expect(formatProgressLine(reporter.state)).toBe("turn 1/20 · waiting for the model 4 s (time-out 120 s, --request-timeout-ms) · 0 tokens · 4.0 s");
    reporter.onEvent(event({ type: "model_retry", iteration: 1, model: "m", attempt: 1, maxAttempts: 4, failure: "status", status: 503, delayMs: 15_000, message: "x" }));
    clock = 9_000;
    expect(reporter.state.lastAction).toBe("retry 1/3 after 503, waiting 10 s");
    reporter.onEvent(event({ type: "model_request", iteration: 1, model: "m", attempt: 2, maxAttempts: 4, timeoutMs: 120_000 }));
    reporter.onEvent(event({ type: "model_progress", iteration: 1, model: "m", attempt: 2, characters: 4000, reasoningCharacters: 0, estimatedTokens: 1000 }));
    expect(formatProgressLine(reporter.state)).toBe("turn 1/20 · model writing: ~1,000 tokens so far · ~1,000 tokens · 9.0 s");
    reporter.onEvent(event({ type: "model_call", iteration: 1, promptTokens: 300, completionTokens: 1000, usageEstimated: false, durationMs: 9000, costUsd: 0, priced: false }));
    expect(formatProgressLine(reporter.state)).toBe("turn 1/20 · model replied in 9.0 s · 1,300 tokens · cost unknown · 9.0 s");
    reporter.stop();
    // Each draw rewrites the line in place; stop() clears it.
    expect(stream.written).toContain("\r\x1b[2K");
    expect(stream.written.endsWith("\r\x1b[2K")).toBe(true);
  });

  test("an llm_query's wait is labelled as such, and ends with its sub-call", () => {
    let clock = 0;
    const reporter = new ProgressReporter({ stream: capture() as unknown as NodeJS.WritableStream, mode: "live", now: () => clock });
    reporter.onEvent(event({ type: "model_retry", iteration: 2, model: "small", attempt: 1, maxAttempts: 4, failure: "status", status: 429, delayMs: 2_000, message: "x", subcallId: "s1" }));
    expect(reporter.state.lastAction).toBe("llm_query: retry 1/3 after 429, waiting 2 s");
    reporter.onEvent(event({ type: "subcall_end", iteration: 2, subcallId: "s2", kind: "llm", model: "small", callDepth: 1, promptTokens: 1, completionTokens: 1, costUsd: 0, durationMs: 1, cached: false }));
    // Another sub-call ending leaves this one's wait on the line.
    expect(reporter.state.lastAction).toBe("llm_query: retry 1/3 after 429, waiting 2 s");
    reporter.onEvent(event({ type: "subcall_end", iteration: 2, subcallId: "s1", kind: "llm", model: "small", callDepth: 1, promptTokens: 1, completionTokens: 1, costUsd: 0, durationMs: 1, cached: false }));
    expect(reporter.state.lastAction).toBe("llm_query answered");
    reporter.stop();
  });

  test("--verbose prints every step on a line of its own, the live line kept below", () => {
    const stream = capture();
    let clock = 0;
    const reporter = new ProgressReporter({ stream: stream as unknown as NodeJS.WritableStream, mode: "live", verbose: true, now: () => clock });
    reporter.onEvent(event({ type: "model_request", iteration: 1, model: "m", attempt: 1, maxAttempts: 4, timeoutMs: 1000 }));
    clock = 1200;
    reporter.onEvent(event({ type: "code_block", iteration: 1, index: 0, language: "js", code: "print(1)", unclosed: false }));
    reporter.stop();
    const lines = stream.written.split("\n").map((line) => line.replace(/[\s\S]*\r\x1b\[2K/, ""));
    expect(lines.slice(0, 2)).toEqual(["     0.0 s  waiting for the model (time-out 1 s, --request-timeout-ms)", "     1.2 s  running block 1: print(1)"]);
  });
});
