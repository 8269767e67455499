import { describe, expect, test } from "vitest";
import type { SessionEvent, SessionResult } from "../../src/index.ts";
import { RunSummary } from "../../src/cli/run-summary.ts";

const base = { sessionId: "s", time: "2025-01-01T00:00:00.000Z", elapsedMs: 0, depth: 0 };
const event = (fields: Record<string, unknown>): SessionEvent => ({ ...base, ...fields }) as unknown as SessionEvent;
const usage = (fields: Partial<SessionResult["usage"]> = {}): SessionResult["usage"] => ({
  promptTokens: 4000,
  completionTokens: 321,
  modelCalls: 3,
  costUsd: 0,
  byDepth: {},
  byModel: {},
  unpricedModels: ["local"],
  costKnown: false,
  estimated: true,
  ...fields,
});
const result = (fields: Partial<SessionResult> = {}): SessionResult => ({ status: "final", answer: "x", iterations: 3, usage: usage(), sessionId: "s", durationMs: 12_340, ...fields });

describe("RunSummary: what a run did, after the progress line is gone", () => {
  test("one line per turn: tools with their first argument, failed blocks, sub-calls, FINAL; retries; the trace", () => {
    const summary = new RunSummary();
    const events = [
      event({ type: "model_request", iteration: 1, model: "m", attempt: 1, maxAttempts: 4 }),
      event({ type: "model_retry", iteration: 1, model: "m", attempt: 1, maxAttempts: 4, failure: "status", status: 503, delayMs: 1000, message: "x" }),
      event({ type: "protocol_degraded", iteration: 1, from: "native", to: "json", reason: "the server refuses tools" }),
      event({ type: "model_call", iteration: 1 }),
      event({ type: "code_block", iteration: 1, index: 0, code: "" }),
      event({ type: "tool_call", iteration: 1, index: 0, tool: "nav_search", args: ["retry", { limit: 5 }], line: 1, durationMs: 1 }),
      event({ type: "tool_call", iteration: 1, index: 0, tool: "nav_read", args: ["RetryPolicy.next"], line: 2, durationMs: 1, error: "no symbol" }),
      event({ type: "model_call", iteration: 2 }),
      event({ type: "code_block", iteration: 2, index: 0, code: "" }),
      event({ type: "sandbox_result", iteration: 2, index: 0, output: "", outputTruncated: false, error: { kind: "runtime", name: "TypeError", message: "x is not defined" }, reset: false, durationMs: 1 }),
      event({ type: "subcall_start", iteration: 2, subcallId: "a", kind: "llm", model: "s", callDepth: 1, promptChars: 1 }),
      event({ type: "subcall_start", iteration: 2, subcallId: "b", kind: "llm", model: "s", callDepth: 1, promptChars: 1 }),
      event({ type: "subcall_start", iteration: 2, subcallId: "c", kind: "llm", model: "s", callDepth: 1, promptChars: 1 }),
      // A child session's own turns are not the root's.
      event({ type: "tool_call", depth: 1, iteration: 1, index: 0, tool: "nav_ls", args: ["."], line: 1, durationMs: 1 }),
      event({ type: "model_call", iteration: 3 }),
      event({ type: "code_block", iteration: 3, index: 0, code: "" }),
      event({ type: "sandbox_result", iteration: 3, index: 0, output: "", outputTruncated: false, final: true, reset: false, durationMs: 1 }),
    ];
    for (const item of events) summary.onEvent(item);
    expect(summary.format(result(), { tracePath: "/tmp/run.jsonl" })).toBe(
      [
        "final · 3 turns · ~4,321 tokens (estimated) · cost unknown · 12.3 s",
        '  turn 1: nav_search("retry", …), nav_read("RetryPolicy.next") failed',
        "  turn 2: block 1 failed: TypeError: x is not defined, 3× llm_query",
        "  turn 3: FINAL",
        "  protocol: native → json (the server refuses tools)",
        "  model retries: 1 (503)",
        "  trace: /tmp/run.jsonl",
        "",
      ].join("\n"),
    );
  });

  test.each([
    { label: "a turn whose blocks ran quietly", events: [event({ type: "model_call", iteration: 1 }), event({ type: "code_block", iteration: 1, index: 0, code: "" })], line: "  turn 1: ran 1 block" },
    { label: "a reply without code", events: [event({ type: "model_call", iteration: 1 }), event({ type: "feedback", iteration: 1, text: "nudge" })], line: "  turn 1: no code to run" },
    { label: "a request that never got a reply", events: [event({ type: "model_request", iteration: 1, model: "m", attempt: 1, maxAttempts: 1 })], line: "  turn 1: no reply from the model" },
  ])("$label", ({ events, line }) => {
    const summary = new RunSummary();
    for (const item of events) summary.onEvent(item);
    expect(summary.format(result({ status: "error", iterations: 1 })).split("\n")[1]).toBe(line);
  });

  test("measured usage and a known cost read as such; no model call, no cost", () => {
    const summary = new RunSummary();
    expect(summary.format(result({ usage: usage({ estimated: false, costKnown: true, costUsd: 0.0123, unpricedModels: [] }) })).split("\n")[0]).toBe("final · 3 turns · 4,321 tokens · $0.0123 · 12.3 s");
    expect(summary.format(result({ status: "error", iterations: 1, usage: usage({ promptTokens: 0, completionTokens: 0, modelCalls: 0, estimated: false, costKnown: true, unpricedModels: [] }) })).split("\n")[0]).toBe("error · 1 turn · 0 tokens · 12.3 s");
  });

  test("a long run shows its last turns and counts the earlier ones; a busy turn counts the rest of its steps", () => {
    const summary = new RunSummary();
    for (let turn = 1; turn <= 15; turn++) summary.onEvent(event({ type: "model_call", iteration: turn }));
    for (const tool of ["a", "b", "c", "d", "e", "f"]) summary.onEvent(event({ type: "tool_call", iteration: 15, index: 0, tool, args: [1], line: 1, durationMs: 1 }));
    const lines = summary.format(result({ iterations: 15 })).trimEnd().split("\n");
    expect(lines[1]).toBe("  … 3 earlier turns");
    expect(lines[2]).toBe("  turn 4: no code to run");
    expect(lines.at(-1)).toBe("  turn 15: a(1), b(1), c(1), d(1), +2 more");
  });
});
