import { describe, expect, test } from "vitest";
import { DEFAULT_MAX_MODEL_CALLS, MAX_SUBCALL_MAX_TOKENS, MAX_SUBCALL_TEMPERATURE, runSession, ScriptedModel, type ModelRequest, type SessionEvent } from "../../src/index.ts";
import { js, feedbackOf } from "../support/scripted-replies.ts";

const promptOf = (request: ModelRequest) => request.messages[request.messages.length - 1].content;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A sub-model whose every reply is built by `reply` (as many calls as `count`). */
function subModel(count: number, reply: (prompt: string, request: ModelRequest) => string | Promise<string>) {
  return new ScriptedModel(Array.from({ length: count }, () => (request: ModelRequest) => reply(promptOf(request), request)), { modelId: "sub" });
}

/** A reply that never comes: it rejects only when the call's signal aborts. */
function hang(request: ModelRequest): Promise<string> {
  return new Promise((_, reject) => request.signal?.addEventListener("abort", () => reject(new Error("aborted")), { once: true }));
}

describe("pending sub-calls", () => {
  test("calls over maxPending fail at once with a refusal string and make no model call", async () => {
    // Replies wait until the three calls over the limit were refused (however late their starts reach the host), or 10 s.
    let refusals = 0;
    let refused!: () => void;
    const allRefused = new Promise<void>((resolve) => ((refused = resolve), setTimeout(resolve, 10_000)));
    const sub = subModel(8, async (prompt) => {
      await allRefused;
      return `ok ${prompt}`;
    });
    const root = new ScriptedModel([js(`const ps = Array.from({ length: 8 }, (_, i) => llm_query("p" + i));\nFINAL(await Promise.all(ps))`)]);
    const onEvent = (event: SessionEvent) => {
      if (event.type === "subcall_end" && event.error !== undefined && ++refusals === 3) refused();
    };
    const result = await runSession({ question: "q", model: root, subModel: sub, subcallLimits: { maxPending: 5 }, onEvent });
    const answers = result.answer as string[];
    expect(answers.slice(0, 5)).toEqual(["ok p0", "ok p1", "ok p2", "ok p3", "ok p4"]);
    for (const answer of answers.slice(5)) expect(answer).toBe("[llm_query refused: 5 sub-calls are pending already, the most one session may have; await some before starting more]");
    expect(sub.requests).toHaveLength(5);
  });

  test("3,000 un-awaited calls do not outlive their block: after the grace they end, and the next block's single call answers", async () => {
    const events: SessionEvent[] = [];
    const sub = subModel(20, (prompt, request) => (prompt === "last" ? "the last answer" : hang(request)));
    const root = new ScriptedModel([js(`for (let i = 0; i < 3000; i++) llm_query("p" + i);\nprint("fired")`), js(`FINAL(await llm_query("last"))`)]);
    const result = await runSession({ question: "q", model: root, subModel: sub, subcallLimits: { graceMs: 50 }, onEvent: (event) => events.push(event) });
    expect(result).toMatchObject({ status: "final", answer: "the last answer" });
    expect(feedbackOf(root, 1)).toContain("fired");
    const ends = events.filter((event) => event.type === "subcall_end");
    // The default limit of 1,000 pending calls refused the rest at once.
    expect(ends.filter((event) => event.error?.startsWith("1,000 sub-calls are pending already"))).toHaveLength(2000);
    // The 8 that reached the model and the 992 waiting for a slot ended with the block, without reaching it.
    expect(ends.filter((event) => event.error?.startsWith("the block that started this call ended without awaiting it"))).toHaveLength(1000);
    expect(sub.requests.map((request) => request.messages[0].content).filter((prompt) => prompt !== "last")).toHaveLength(8);
  });

  test("an un-awaited rlm_query child ends after the grace too", async () => {
    const sub = new ScriptedModel([hang], { modelId: "sub" });
    const events: SessionEvent[] = [];
    // The root's next turn comes 200 ms later, long after the 30 ms grace.
    const root = new ScriptedModel([js(`rlm_query("Find it.", "some text");\nprint("started")`), async () => (await sleep(200), js(`FINAL("done")`))]);
    const result = await runSession({ question: "q", model: root, subModel: sub, subcallLimits: { graceMs: 30 }, onEvent: (event) => events.push(event) });
    expect(result).toMatchObject({ status: "final", answer: "done" });
    const end = events.find((event) => event.type === "subcall_end" && event.kind === "rlm");
    expect(end).toMatchObject({ error: expect.stringContaining("the block that started this call ended without awaiting it") });
  });
});

describe("prompt size", () => {
  test("16 prompts of 2 million characters are refused without a model call; a smaller limit can be set", async () => {
    const sub = subModel(2, (prompt) => `ok ${prompt.length}`);
    const root = new ScriptedModel([js(`const big = await llm_query_batched(Array.from({ length: 16 }, () => "x".repeat(2_000_000)));\nconst small = await llm_query("y".repeat(500));\nFINAL({ big: [...new Set(big)], small })`)]);
    const result = await runSession({ question: "q", model: root, subModel: sub });
    expect(result.answer).toEqual({ big: ["[llm_query refused: the prompt has 2,000,000 characters, over the limit of 1,000,000 for one sub-call; send smaller pieces]"], small: "ok 500" });
    expect(sub.requests).toHaveLength(1);

    const tight = new ScriptedModel([js(`FINAL(await llm_query("y".repeat(500)))`)]);
    const limited = await runSession({ question: "q", model: tight, subModel: subModel(1, () => "unused"), subcallLimits: { maxPromptChars: 100 } });
    expect(limited.answer).toMatch(/^\[llm_query refused: the prompt has 500 characters, over the limit of 100/);
  });

  test("pending prompt characters are bounded across calls", async () => {
    const sub = subModel(4, async () => {
      await sleep(10);
      return "ok";
    });
    const root = new ScriptedModel([js(`FINAL(await Promise.all([1, 2, 3].map(() => llm_query("z".repeat(400)))))`)]);
    const result = await runSession({ question: "q", model: root, subModel: sub, subcallLimits: { maxPendingPromptChars: 1000 } });
    expect(result.answer).toEqual(["ok", "ok", "[llm_query refused: the pending sub-calls would hold 1,200 characters of prompts, over the limit of 1,000; await some before starting more, or send smaller pieces]"]);
  });
});

describe("child sessions", () => {
  /**
   * A sub-model that answers each child's first turn with FINAL(context.length),
   * holding each reply until `expected` children are waiting (then 50 ms more, so
   * a child over the limit would show) or 2 s pass, and counting children at once.
   */
  function childModel(count: number, expected: number) {
    const state = { running: 0, most: 0 };
    const model = subModel(count, async () => {
      state.most = Math.max(state.most, ++state.running);
      for (let waited = 0; waited < 2_000 && state.most < expected; waited += 5) await sleep(5);
      await sleep(50);
      state.running--;
      return js("FINAL(context.length)");
    });
    return { model, state };
  }

  test.each([
    ["the default of 4 at once", {}, 10, 4],
    ["maxChildSessions: 2", { maxChildSessions: 2 }, 6, 2],
    // Each child claims its 64 MB sandbox plus two copies of a 5-million-character value (10 MB): two fit in 200 MB.
    ["maxChildMemoryMb: 200 with 64 MB sandboxes and 5 MB values", { maxChildMemoryMb: 200 }, 6, 2],
  ])("children run at most %s, the rest wait their turn and still answer", async (_label, subcallLimits, children, most) => {
    const { model, state } = childModel(children, most);
    const root = new ScriptedModel([js(`const value = "v".repeat(5_000_000);\nFINAL(await Promise.all(Array.from({ length: ${children} }, () => rlm_query("How long?", value))))`)]);
    const result = await runSession({ question: "q", model: root, subModel: model, subcallLimits, sandbox: { memoryLimitMb: 64 } });
    expect(result.answer).toEqual(Array.from({ length: children }, () => 5_000_000));
    expect(state.most).toBe(most);
  });

  test("a child that could never fit the memory limit is refused at once", async () => {
    const { model } = childModel(1, 1);
    // 64 MB of sandbox plus two copies of 10 million characters (20 MB) is over 80 MB.
    const root = new ScriptedModel([js(`FINAL(await rlm_query("How long?", "v".repeat(10_000_000)))`)]);
    const result = await runSession({ question: "q", model: root, subModel: model, subcallLimits: { maxChildMemoryMb: 80 }, sandbox: { memoryLimitMb: 64 } });
    expect(result.answer).toBe("[rlm_query refused: a child session with this input would claim about 84 MB, over the 80 MB child sessions may hold; give it a smaller value]");
    expect(model.requests).toHaveLength(0);
  });
});

describe("options and the default budget", () => {
  test("sub-call options are lowered into sane ranges before they reach the model", async () => {
    const sub = subModel(1, () => "ok");
    const root = new ScriptedModel([js(`FINAL(await llm_query("p", { maxTokens: 1e15, temperature: 50 }))`)]);
    await runSession({ question: "q", model: root, subModel: sub });
    expect(sub.requests[0]).toMatchObject({ maxTokens: MAX_SUBCALL_MAX_TOKENS, temperature: MAX_SUBCALL_TEMPERATURE });
  });

  test("without a budget, one line cannot make more than 500 model calls; the root gets one last turn", async () => {
    const sub = subModel(600, (prompt) => `ok ${prompt}`);
    const root = new ScriptedModel([
      js(`const replies = await llm_query_batched(Array.from({ length: 600 }, (_, i) => "p" + i));\nprint(replies.filter((reply) => reply.startsWith("ok")).length)`),
      js(`FINAL("stopped")`),
    ]);
    const result = await runSession({ question: "q", model: root, subModel: sub });
    expect(result).toMatchObject({ status: "budget_exceeded", answer: "stopped", budget: { limit: "maxModelCalls", limitValue: DEFAULT_MAX_MODEL_CALLS } });
    // The root's first turn was call 1, so 499 sub-calls fit.
    expect(sub.requests).toHaveLength(DEFAULT_MAX_MODEL_CALLS - 1);
    expect(feedbackOf(root, 1)).toContain(`output:\n${DEFAULT_MAX_MODEL_CALLS - 1}`);
  });
});
