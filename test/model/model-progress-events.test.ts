import { describe, expect, test } from "vitest";
import { OpenAICompatibleModel, runSession, ScriptedModel, type PriceTable, type SessionEvent } from "../../src/index.ts";
import { relayModelProgress } from "../../src/model/model-progress-events.ts";
import type { SessionEventInput } from "../../src/core/events.ts";
import { startOpenAIServer } from "../support/openai-server.ts";
import { js } from "../support/scripted-replies.ts";

describe("a session reports its model calls as they happen", () => {
  test("model_request (with the time-out), model_retry (status, wait), throttled model_progress, then model_call", async () => {
    await using server = await startOpenAIServer([
      { status: 503, headers: { "retry-after-ms": "50" } },
      // 9 deltas 100 ms apart: a reply that takes about 0.8 s to arrive, without usage.
      { text: "unused", chunks: [..."```js\nFINAL(42)\n```".match(/.{1,2}/gs)!], chunkDelayMs: 100, usage: null },
    ]);
    const model = new OpenAICompatibleModel({ baseURL: server.url, model: "slow-model", stream: true, timeoutMs: 5_000 });
    const events: SessionEvent[] = [];
    const result = await runSession({ question: "q", model, onEvent: (event) => events.push(event) });

    expect(result).toMatchObject({ status: "final", answer: 42 });
    const calls = events.filter((event) => event.type.startsWith("model_"));
    const types = calls.map((event) => event.type);
    expect(types.slice(0, 3)).toEqual(["model_request", "model_retry", "model_request"]);
    expect(types.at(-1)).toBe("model_call");
    expect(calls[0]).toMatchObject({ iteration: 1, model: "slow-model", attempt: 1, maxAttempts: 4, timeoutMs: 5_000 });
    expect(calls[1]).toMatchObject({ iteration: 1, attempt: 1, failure: "status", status: 503, delayMs: 50 });
    expect(calls[2]).toMatchObject({ attempt: 2 });
    const progress = calls.filter((event) => event.type === "model_progress");
    // 9 chunks over ~0.8 s, at most one event per 500 ms: the first at once, then one more or so, never one per chunk.
    const call = calls.at(-1)!;
    const callMs = call.type === "model_call" ? call.durationMs : 0;
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.length).toBeLessThan(9);
    expect(progress.length).toBeLessThanOrEqual(1 + Math.ceil(callMs / 500));
    const counts = progress.map((event) => (event.type === "model_progress" ? event.characters : -1));
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(counts[0]).toBeLessThan(counts.at(-1)!);
  });

  test("an llm_query's model call reports too, each event tagged with its sub-call", async () => {
    await using server = await startOpenAIServer([{ status: 503, headers: { "retry-after-ms": "20" } }, "a summary"]);
    const subModel = new OpenAICompatibleModel({ baseURL: server.url, model: "sub-model" });
    const events: SessionEvent[] = [];
    const result = await runSession({ question: "q", model: new ScriptedModel([js("const s = await llm_query('summarise')\nFINAL(s)")]), subModel, onEvent: (event) => events.push(event) });

    expect(result).toMatchObject({ status: "final", answer: "a summary" });
    const start = events.find((event) => event.type === "subcall_start");
    const calls = events.filter((event) => event.type.startsWith("model_") && event.type !== "model_call");
    expect(calls.map((event) => event.type)).toEqual(["model_request", "model_retry", "model_request"]);
    for (const event of calls) expect(event).toMatchObject({ iteration: 1, model: "sub-model", subcallId: start?.type === "subcall_start" ? start.subcallId : "missing", depth: 0 });
    expect(calls[1]).toMatchObject({ status: 503, delayMs: 20 });
  });

  test("a client that reports no progress (ScriptedModel) gives none of these events", async () => {
    const events: SessionEvent[] = [];
    await runSession({ question: "q", model: new ScriptedModel([js("FINAL(1)")]), onEvent: (event) => events.push(event) });
    expect(events.filter((event) => ["model_request", "model_retry", "model_progress"].includes(event.type))).toEqual([]);
  });
});

describe("relayModelProgress throttles streamed output", () => {
  test("the first chunk of each attempt at once, then at most one event per interval", () => {
    let clock = 0;
    const emitted: SessionEventInput[] = [];
    const relay = relayModelProgress({ emit: (event) => emitted.push(event), iteration: 3, model: "m", now: () => clock, intervalMs: 500 });
    const output = (characters: number) => relay({ kind: "output", attempt: 1, characters, reasoningCharacters: 0, estimatedTokens: Math.ceil(characters / 4) });
    relay({ kind: "attempt", attempt: 1, maxAttempts: 2, timeoutMs: 1000 });
    for (clock = 0; clock <= 1200; clock += 100) output(clock);
    relay({ kind: "attempt", attempt: 2, maxAttempts: 2 });
    output(5);
    expect(emitted.map((event) => [event.type, "characters" in event ? event.characters : "attempt" in event ? `attempt ${event.attempt}` : ""])).toEqual([
      ["model_request", "attempt 1"],
      ["model_progress", 0],
      ["model_progress", 500],
      ["model_progress", 1000],
      ["model_request", "attempt 2"],
      ["model_progress", 5],
    ]);
    expect(emitted[4]).not.toHaveProperty("timeoutMs");
  });
});

describe("usage says what was estimated and what has no price", () => {
  test.each([
    { label: "estimated usage, unpriced model", model: () => new ScriptedModel([js("FINAL(1)")], { modelId: "local-model" }), prices: {} as PriceTable, estimated: true, costKnown: false, unpriced: ["local-model"] },
    { label: "reported usage, priced model", model: () => new ScriptedModel([js("FINAL(1)")], { modelId: "priced-model", usage: { promptTokens: 1000, completionTokens: 100 } }), prices: { "priced-model": { inputPerMillion: 1, outputPerMillion: 2 } } as PriceTable, estimated: false, costKnown: true, unpriced: [] },
  ])("$label", async ({ model, prices, estimated, costKnown, unpriced }) => {
    const events: SessionEvent[] = [];
    const result = await runSession({ question: "q", model: model(), prices, onEvent: (event) => events.push(event) });
    expect(result.usage).toMatchObject({ estimated, costKnown, unpricedModels: unpriced });
    expect(events.find((event) => event.type === "model_call")).toMatchObject({ usageEstimated: estimated, priced: costKnown });
    expect(events.find((event) => event.type === "session_end")).toMatchObject({ usage: { estimated, costKnown } });
  });
});
