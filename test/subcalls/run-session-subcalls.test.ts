import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { defineTool, runSession, ScriptedModel, type ModelRequest, type SessionEvent } from "../../src/index.ts";
import { js } from "../support/scripted-replies.ts";
import { tempDir } from "../support/temp-dir.ts";

const promptOf = (request: ModelRequest) => request.messages[request.messages.length - 1].content;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A sub-model whose every reply is built by `reply` (as many calls as `count`). */
function subModel(count: number, reply: (prompt: string, request: ModelRequest) => string | Promise<string>, options: ConstructorParameters<typeof ScriptedModel>[1] = {}) {
  return new ScriptedModel(Array.from({ length: count }, () => (request: ModelRequest) => reply(promptOf(request), request)), { modelId: "sub", ...options });
}

function lastUserMessage(model: ScriptedModel, request: number): string {
  const messages = model.requests[request].messages;
  return messages[messages.length - 1].content;
}

/** Releases replies that were left hanging on purpose, so nothing outlives its test. */
const releases: (() => void)[] = [];
afterEach(() => {
  for (const release of releases.splice(0)) release();
});

describe("llm_query_batched", () => {
  test("20 chunks come back as 20 answers in prompt order, even when later ones finish first", async () => {
    const root = new ScriptedModel([
      js(`const chunks = Array.from({ length: 20 }, (_, i) => "chunk " + i);
const answers = await llm_query_batched(chunks.map((chunk) => "Summarize: " + chunk));
FINAL(answers)`),
    ]);
    const sub = subModel(20, async (prompt) => {
      const index = Number(prompt.split(" ").at(-1));
      await sleep((20 - index) * 3);
      return `summary of ${prompt.slice("Summarize: ".length)}`;
    });
    const result = await runSession({ question: "Summarize the chunks.", model: root, subModel: sub });
    expect(result.status).toBe("final");
    expect(result.answer).toEqual(Array.from({ length: 20 }, (_, i) => `summary of chunk ${i}`));
    expect(sub.requests).toHaveLength(20);
    expect(sub.requests[0].messages).toEqual([{ role: "user", content: "Summarize: chunk 0" }]);
    expect(result.usage.byDepth["1"].modelCalls).toBe(20);
    expect(result.usage.byModel.sub.modelCalls).toBe(20);
  });

  test.each([
    ["an explicit limit of 3", 3, 10],
    ["the default limit of 8", undefined, 20],
  ])("calls in flight are bounded by %s", async (_label, subcallConcurrency, prompts) => {
    let inFlight = 0;
    let most = 0;
    const sub = subModel(prompts, async (prompt) => {
      most = Math.max(most, ++inFlight);
      await sleep(25);
      inFlight--;
      return prompt.toUpperCase();
    });
    const root = new ScriptedModel([js(`FINAL(await llm_query_batched(Array.from({ length: ${prompts} }, (_, i) => "p" + i)))`)]);
    const result = await runSession({ question: "q", model: root, subModel: sub, ...(subcallConcurrency ? { subcallConcurrency } : {}) });
    expect(result.status).toBe("final");
    expect((result.answer as string[]).length).toBe(prompts);
    expect(most).toBe(subcallConcurrency ?? 8);
  });

  test("a failing call yields an error string in its slot; the others still answer", async () => {
    const sub = subModel(3, (prompt) => {
      if (prompt === "bad") throw new Error("server said no");
      return `ok ${prompt}`;
    });
    const root = new ScriptedModel([js(`FINAL(await llm_query_batched(["a", "bad", "c"]))`)]);
    const result = await runSession({ question: "q", model: root, subModel: sub });
    expect(result.status).toBe("final");
    expect(result.answer).toEqual(["ok a", "[llm_query error: server said no]", "ok c"]);
  });
});

describe("llm_query", () => {
  test("a failing call returns an error string instead of throwing, so the block goes on", async () => {
    const sub = subModel(1, () => {
      throw new Error("overloaded");
    });
    const root = new ScriptedModel([js(`const reply = await llm_query("hello");\nFINAL({ reply, type: typeof reply })`)]);
    const result = await runSession({ question: "q", model: root, subModel: sub });
    expect(result.answer).toEqual({ reply: "[llm_query error: overloaded]", type: "string" });
  });

  test("wrong argument types throw in the guest, with the block's line", async () => {
    const sub = subModel(0, () => "unused");
    const root = new ScriptedModel([js(`print("start")\nawait llm_query(42)`), js(`FINAL("done")`)]);
    const result = await runSession({ question: "q", model: root, subModel: sub });
    expect(result.status).toBe("final");
    expect(lastUserMessage(root, 1)).toContain("error: TypeError: llm_query(prompt, options?): prompt must be a string, got number.");
    expect(sub.requests).toHaveLength(0);
  });

  test("options reach the sub-model; unknown options are rejected by name", async () => {
    const sub = subModel(1, () => "short");
    const root = new ScriptedModel([
      js(`const a = await llm_query("x", { maxTokens: 5, temperature: 0 });\nprint(a)\nawait llm_query("y", { topP: 1 })`),
      js(`FINAL(a)`),
    ]);
    const result = await runSession({ question: "q", model: root, subModel: sub });
    expect(result.answer).toBe("short");
    expect(sub.requests[0]).toMatchObject({ maxTokens: 5, temperature: 0 });
    expect(lastUserMessage(root, 1)).toContain("unknown option 'topP'; the options are maxTokens and temperature");
  });

  test("a sub-call that outlives subcallTimeoutMs returns a timeout error string and the session goes on", async () => {
    const sub = subModel(1, () => new Promise<string>((resolve) => releases.push(() => resolve("too late"))));
    const root = new ScriptedModel([js(`FINAL(await llm_query("slow"))`)]);
    const result = await runSession({ question: "q", model: root, subModel: sub, subcallTimeoutMs: 100 });
    expect(result.status).toBe("final");
    expect(result.answer).toBe("[llm_query error: no reply within the sub-call timeout of 100 ms]");
  });

  test("with subcallCacheDir a repeated call is answered from disk without a model call", async () => {
    const dir = tempDir("rlmkit-cache-");
    const first = await runSession({ question: "q", model: new ScriptedModel([js(`FINAL(await llm_query("same prompt"))`)]), subModel: subModel(1, () => "fresh reply"), subcallCacheDir: dir });
    expect(first.answer).toBe("fresh reply");
    const events: SessionEvent[] = [];
    const emptySub = subModel(0, () => "unused");
    const second = await runSession({ question: "q", model: new ScriptedModel([js(`FINAL(await llm_query("same prompt"))`)]), subModel: emptySub, subcallCacheDir: dir, onEvent: (event) => events.push(event) });
    expect(second.answer).toBe("fresh reply");
    expect(emptySub.requests).toHaveLength(0);
    expect(events.find((event) => event.type === "subcall_end")).toMatchObject({ cached: true, promptTokens: 0, completionTokens: 0 });
    expect(second.usage.modelCalls).toBe(1);
    // A different option is a different key.
    const third = await runSession({ question: "q", model: new ScriptedModel([js(`FINAL(await llm_query("same prompt", { temperature: 1 }))`)]), subModel: subModel(1, () => "other reply"), subcallCacheDir: dir });
    expect(third.answer).toBe("other reply");
  });
});

describe("budgets", () => {
  test("a token budget refuses sub-calls, then the root gets exactly one last turn and the status names maxTokens", async () => {
    const root = new ScriptedModel(
      [
        js(`const replies = await llm_query_batched(Array.from({ length: 10 }, (_, i) => "p" + i));\nprint(replies.filter((reply) => reply.startsWith("[llm_query refused")).length, "refused")`),
        js(`FINAL("partial answer")`),
        js(`FINAL("never reached")`),
      ],
      { modelId: "root", usage: { promptTokens: 2000, completionTokens: 10 } },
    );
    const sub = subModel(10, (prompt) => `reply ${prompt}`, { usage: { promptTokens: 500, completionTokens: 500 } });
    const events: SessionEvent[] = [];
    const result = await runSession({ question: "q", model: root, subModel: sub, subcallConcurrency: 1, budget: { maxTokens: 6000 }, onEvent: (event) => events.push(event) });
    expect(result.status).toBe("budget_exceeded");
    expect(result.answer).toBe("partial answer");
    expect(result.budget).toMatchObject({ limit: "maxTokens", limitValue: 6000 });
    // 2,010 for the first root turn, then four sub-calls of 1,000 fit (the fourth is estimated at 1 token before it runs).
    expect(sub.requests).toHaveLength(4);
    expect(root.requests).toHaveLength(2);
    expect(lastUserMessage(root, 1)).toContain("6 refused");
    expect(lastUserMessage(root, 1)).toContain("This is your last turn");
    expect(lastUserMessage(root, 1)).toContain("budget exceeded (maxTokens)");
    expect(result.usage).toMatchObject({ promptTokens: 2 * 2000 + 4 * 500, completionTokens: 2 * 10 + 4 * 500, modelCalls: 6 });
    expect(events.filter((event) => event.type === "budget_exceeded")).toHaveLength(1);
    expect(events.filter((event) => event.type === "subcall_end" && event.refused === "maxTokens")).toHaveLength(6);
  });

  test("when the last turn does not answer, the session stops there without an answer", async () => {
    const root = new ScriptedModel([js(`print(await llm_query("a"), await llm_query("b"))`), js(`print("still looking")`), js(`FINAL("too late")`)], { modelId: "root", usage: { promptTokens: 10, completionTokens: 10 } });
    const sub = subModel(2, () => "x", { usage: { promptTokens: 10, completionTokens: 10 } });
    const result = await runSession({ question: "q", model: root, subModel: sub, budget: { maxModelCalls: 2 } });
    expect(result.status).toBe("budget_exceeded");
    expect(result).not.toHaveProperty("answer");
    expect(result.budget?.limit).toBe("maxModelCalls");
    expect(result.error).toContain("budget exceeded (maxModelCalls)");
    expect(root.requests).toHaveLength(2);
    expect(root.remaining).toBe(1);
    expect(sub.requests).toHaveLength(1);
  });

  test("a cost budget stops the session with maxCostUsd; unpriced models cost 0 and are listed", async () => {
    const root = new ScriptedModel([js(`const replies = await llm_query_batched(["a", "b", "c", "d", "e"]);\nprint(JSON.stringify(replies))`), js(`FINAL("cheap answer")`)], { modelId: "root-local", usage: { promptTokens: 100, completionTokens: 100 } });
    const sub = subModel(5, (prompt) => `reply ${prompt}`, { modelId: "sub-priced", usage: { promptTokens: 100, completionTokens: 100 } });
    const result = await runSession({
      question: "q",
      model: root,
      subModel: sub,
      subcallConcurrency: 1,
      prices: { "sub-priced": { inputPerMillion: 1000, outputPerMillion: 1000 } },
      budget: { maxCostUsd: 0.5 },
    });
    // Each sub-call costs $0.20: two fit, the third is estimated at $0.0001 more and runs, the fourth is refused.
    expect(sub.requests).toHaveLength(3);
    expect(result).toMatchObject({ status: "budget_exceeded", answer: "cheap answer", budget: { limit: "maxCostUsd", limitValue: 0.5 } });
    expect(result.usage.costUsd).toBeCloseTo(0.6, 10);
    expect(result.usage.byModel["sub-priced"]).toMatchObject({ modelCalls: 3, priced: true });
    expect(result.usage.byModel["root-local"]).toMatchObject({ modelCalls: 2, costUsd: 0, priced: false });
    expect(result.usage.unpricedModels).toEqual(["root-local"]);
    expect(root.requests).toHaveLength(2);
    expect(lastUserMessage(root, 1)).toContain('"[llm_query refused: budget exceeded (maxCostUsd)');
  });

  test("the root's own turns count: a refused root turn becomes the one last turn", async () => {
    const root = new ScriptedModel([js(`print(1)`), js(`print(2)`), js(`FINAL("from the last turn")`), js(`FINAL("never")`)], { usage: { promptTokens: 10, completionTokens: 10 } });
    const result = await runSession({ question: "q", model: root, budget: { maxModelCalls: 2 } });
    expect(result).toMatchObject({ status: "budget_exceeded", answer: "from the last turn", budget: { limit: "maxModelCalls", limitValue: 2 } });
    expect(root.requests).toHaveLength(3);
    expect(lastUserMessage(root, 2)).toContain("output:\n2");
    expect(lastUserMessage(root, 2)).toContain("This is your last turn");
    expect(result.usage.modelCalls).toBe(3);
  });

  test("budget() reports what is used and left, null for unlimited", async () => {
    const root = new ScriptedModel([js(`FINAL(await budget())`)], { modelId: "root", usage: { promptTokens: 7, completionTokens: 3 } });
    const result = await runSession({ question: "q", model: root, subcalls: true, budget: { maxModelCalls: 10, maxDepth: 2 } });
    expect(result.answer).toMatchObject({
      used: { modelCalls: 1, tokens: 10, costUsd: 0 },
      left: { modelCalls: 9, tokens: null, costUsd: null, wallMs: null },
      depth: 0,
      maxDepth: 2,
      exhausted: null,
      unpricedModels: ["root"],
    });
  });

  test.each([
    ["maxTokens", { maxTokens: -1 }, /budget.maxTokens must be a non-negative number/],
    ["maxDepth", { maxDepth: 1.5 }, /budget.maxDepth must be an integer/],
  ])("an invalid %s is rejected up front", async (_label, budget, message) => {
    await expect(runSession({ question: "q", model: new ScriptedModel([]), budget })).rejects.toThrow(message);
  });
});

describe("rlm_query", () => {
  test("at depth 0 it runs a child session with its own sandbox, value as context, and the same tools", async () => {
    const calls: unknown[] = [];
    const tool = defineTool({ name: "lookup", description: "Looks a key up.", parameters: { type: "object", properties: { key: { type: "string" } } }, handler: (args) => (calls.push(args), "found") });
    const root = new ScriptedModel([js(`const secret = "root only";\nconst total = await rlm_query("What is the sum?", [1, 2, 3]);\nFINAL({ total, secret })`)]);
    const sub = new ScriptedModel([js(`const hit = lookup("k");\nFINAL(context.reduce((a, b) => a + b, 0) + (typeof secret === "undefined" ? 0 : 100) + (hit === "found" ? 1000 : 0))`)], { modelId: "sub" });
    const events: SessionEvent[] = [];
    const result = await runSession({ question: "q", model: root, subModel: sub, tools: [tool], onEvent: (event) => events.push(event) });
    expect(result).toMatchObject({ status: "final", answer: { total: 1006, secret: "root only" } });
    expect(calls).toEqual([{ key: "k" }]);
    const childStart = events.find((event) => event.type === "session_start" && event.depth === 1);
    expect(childStart).toMatchObject({ question: "What is the sum?", model: "sub", parentSessionId: result.sessionId });
    expect(childStart?.sessionId).not.toBe(result.sessionId);
    expect(events.find((event) => event.type === "subcall_end" && event.kind === "rlm")).toMatchObject({ childSessionId: childStart?.sessionId, childStatus: "final", callDepth: 1, response: 1006 });
    // The root is told rlm_query starts a session; the child, at the maximum depth, that it degrades.
    expect(root.requests[0].messages[0].content).toContain("the FINAL answer of a new session like this one");
    expect(sub.requests[0].messages[0].content).toContain("no new session is started");
    expect(sub.requests[0].messages[0].content).toContain("`context` is an array of 3 items");
  });

  test("at the maximum depth it degrades to llm_query with question and value in one prompt", async () => {
    const root = new ScriptedModel([js(`FINAL(await rlm_query("Outer question", "outer value"))`)]);
    const sub = new ScriptedModel([js(`FINAL(await rlm_query("Say hi", { to: "you" }))`), "hi there"], { modelId: "sub" });
    const events: SessionEvent[] = [];
    const result = await runSession({ question: "q", model: root, subModel: sub, onEvent: (event) => events.push(event) });
    expect(result).toMatchObject({ status: "final", answer: "hi there" });
    expect(sub.requests[1].messages).toEqual([{ role: "user", content: 'Say hi\n\n{"to":"you"}' }]);
    expect(events.find((event) => event.type === "subcall_start" && event.degraded === true)).toMatchObject({ depth: 1, callDepth: 2, kind: "llm" });
    expect(result.usage.byDepth).toMatchObject({ "0": { modelCalls: 1 }, "1": { modelCalls: 1 }, "2": { modelCalls: 1 } });
  });

  test("with maxDepth 0 the root's rlm_query is already an llm_query", async () => {
    const root = new ScriptedModel([js(`FINAL(await rlm_query("Just this"))`)]);
    const sub = new ScriptedModel(["plain reply"], { modelId: "sub" });
    const result = await runSession({ question: "q", model: root, subModel: sub, budget: { maxDepth: 0 } });
    expect(result.answer).toBe("plain reply");
    expect(sub.requests[0].messages).toEqual([{ role: "user", content: "Just this" }]);
  });

  test("a child session without an answer gives an rlm_query error string", async () => {
    const root = new ScriptedModel([js(`FINAL(await rlm_query("q2", "v"))`)]);
    const sub = new ScriptedModel(["no code here", "still no code", "never code"], { modelId: "sub" });
    const result = await runSession({ question: "q", model: root, subModel: sub });
    expect(result.answer).toBe("[rlm_query error: the child session ended with status 'no_code': the model wrote no runnable code in 3 replies in a row (the last one: it was prose only, and FINAL written in prose does not answer)]");
  });
});

describe("time", () => {
  test("time spent waiting on sub-calls counts against the session timeout", async () => {
    const signals: AbortSignal[] = [];
    const sub = subModel(1, (_prompt, request) => {
      signals.push(request.signal!);
      // Never answers and ignores its signal: the session must not wait for it.
      return new Promise<string>((resolve) => releases.push(() => resolve("late")));
    });
    const root = new ScriptedModel([js(`const reply = await llm_query("slow");\nFINAL(reply)`)]);
    const result = await runSession({ question: "q", model: root, subModel: sub, timeoutMs: 300, sandbox: { timeoutMs: 30_000 } });
    expect(result.status).toBe("timeout");
    expect(result.durationMs).toBeLessThan(10_000);
    expect(signals[0].aborted).toBe(true);
  });
});

describe("system prompt", () => {
  test.each([
    ["subcalls: false: not taught", undefined, false, [], ["llm_query"]],
    ["no sub-model: taught, answered by the root model", undefined, undefined, ["llm_query_batched(prompts, options)", "another model (scripted)"], []],
    ["a known context window: size from it", 8_000, undefined, ["llm_query_batched(prompts, options)", "about 8,000 tokens, so give one call at most about 16,000 characters", "(3 at a time)"], []],
    ["an unknown context window: the default size", undefined, true, ["is not known; give one call at most about 50,000 characters"], []],
  ])("%s", async (_label, contextWindow, withSub: boolean | undefined, present: string[], absent: string[]) => {
    const root = new ScriptedModel([js(`FINAL(1)`)]);
    const options = withSub === false ? { subcalls: false } : contextWindow !== undefined || withSub ? { subModel: new ScriptedModel([], { modelId: "sub", ...(contextWindow ? { contextWindow } : {}) }), subcallConcurrency: 3 } : {};
    await runSession({ question: "q", model: root, ...options });
    const system = root.requests[0].messages[0].content;
    for (const text of present) expect(system).toContain(text);
    for (const text of absent) expect(system).not.toContain(text);
  });

  test("a tool named like a sub-call function is rejected when sub-calls are on", async () => {
    const tool = defineTool({ name: "budget", description: "x", parameters: { type: "object", properties: {} }, handler: () => 1 });
    await expect(runSession({ question: "q", model: new ScriptedModel([]), subcalls: true, tools: [tool] })).rejects.toThrow(/a tool is named 'budget'/);
  });
});

describe("trace of a two-level run", () => {
  test("shows the tree with per-call usage, and the totals equal the sum of the parts", async () => {
    const tracePath = join(tempDir("rlmkit-trace-"), "trace.jsonl");
    const root = new ScriptedModel(
      [js(`const parts = await llm_query_batched(["one", "two"]);\nconst deep = await rlm_query("Count", "a b c");\nprint(parts, deep)`), js(`FINAL(parts.join() + deep)`)],
      { modelId: "root", usage: { promptTokens: 1000, completionTokens: 100 } },
    );
    const sub = new ScriptedModel(
      [
        "reply one",
        "reply two",
        js(`const words = await llm_query("Count the words: " + context);\nFINAL(words)`),
        "3",
      ],
      { modelId: "sub", usage: { promptTokens: 40, completionTokens: 4 } },
    );
    const result = await runSession({ question: "q", model: root, subModel: sub, tracePath, prices: { root: { inputPerMillion: 1, outputPerMillion: 2 }, sub: { inputPerMillion: 10, outputPerMillion: 20 } } });
    expect(result).toMatchObject({ status: "final", answer: "reply one,reply two3" });

    const events = readFileSync(tracePath, "utf8").trim().split("\n").map((line) => JSON.parse(line) as SessionEvent);
    const ends = events.filter((event) => event.type === "session_end");
    expect(ends).toHaveLength(2);
    const childEnd = ends.find((event) => event.depth === 1)!;
    const rootEnd = ends.find((event) => event.depth === 0)!;
    expect(events.filter((event) => event.sessionId === childEnd.sessionId).every((event) => event.parentSessionId === rootEnd.sessionId)).toBe(true);
    expect(events.filter((event) => event.sessionId === rootEnd.sessionId).every((event) => event.parentSessionId === undefined)).toBe(true);

    // Per-call usage: every model_call (root and child turns) and every llm sub-call (rlm ones carry the child's subtree).
    const parts = events.flatMap((event) =>
      event.type === "model_call" ? [{ depth: event.depth, promptTokens: event.promptTokens, completionTokens: event.completionTokens, costUsd: event.costUsd! }]
      : event.type === "subcall_end" && event.kind === "llm" ? [{ depth: event.callDepth, promptTokens: event.promptTokens, completionTokens: event.completionTokens, costUsd: event.costUsd }]
      : [],
    );
    expect(parts).toHaveLength(6);
    const sum = (rows: typeof parts) => ({
      promptTokens: rows.reduce((total, row) => total + row.promptTokens, 0),
      completionTokens: rows.reduce((total, row) => total + row.completionTokens, 0),
      modelCalls: rows.length,
      costUsd: rows.reduce((total, row) => total + row.costUsd, 0),
    });
    const totals = sum(parts);
    expect(totals).toMatchObject({ promptTokens: 2 * 1000 + 4 * 40, completionTokens: 2 * 100 + 4 * 4, modelCalls: 6 });
    expect(rootEnd.usage).toMatchObject({ promptTokens: totals.promptTokens, completionTokens: totals.completionTokens, modelCalls: totals.modelCalls });
    expect(rootEnd.usage.costUsd).toBeCloseTo(totals.costUsd, 12);
    expect(rootEnd.usage.costUsd).toBeCloseTo((2000 * 1 + 200 * 2 + 160 * 10 + 16 * 20) / 1_000_000, 12);
    for (const depth of [0, 1, 2]) {
      const atDepth = sum(parts.filter((row) => row.depth === depth));
      expect(rootEnd.usage.byDepth[String(depth)]).toMatchObject({ promptTokens: atDepth.promptTokens, completionTokens: atDepth.completionTokens, modelCalls: atDepth.modelCalls });
    }
    expect(rootEnd.usage.byModel).toMatchObject({ root: { modelCalls: 2 }, sub: { modelCalls: 4 } });
    // The child's own total is its subtree, and the rlm sub-call reports the same.
    expect(childEnd.usage).toMatchObject({ promptTokens: 80, completionTokens: 8, modelCalls: 2 });
    expect(events.find((event) => event.type === "subcall_end" && event.kind === "rlm")).toMatchObject({ promptTokens: 80, completionTokens: 8, childSessionId: childEnd.sessionId });
    expect(result.usage).toEqual(rootEnd.usage);
  });
});
