/**
 * Session hooks at the four points of a turn, through `runSession`: what a veto,
 * a correction and a change do at each, the `hook` events in the trace, the turn
 * ledger hooks read, and a hook that throws.
 */
import { describe, expect, test } from "vitest";
import { defineTool, runSession, ScriptedModel, type HookContext, type SessionEvent, type SessionHook, type SessionOptions, type TurnLedger } from "../../src/index.ts";
import { callLineProtocol } from "../support/call-line-protocol.ts";
import { feedbackOf, js } from "../support/scripted-replies.ts";

const calls: string[] = [];
const lookup = defineTool({
  name: "lookup",
  description: "Looks a key up.",
  parameters: { type: "object", properties: { key: { type: "string" } }, required: ["key"] },
  handler: ({ key }) => {
    calls.push(key);
    return { key, secret: `s3cr3t-${key}` };
  },
});

async function run(options: Partial<SessionOptions> & Pick<SessionOptions, "model">) {
  calls.length = 0;
  const events: SessionEvent[] = [];
  const result = await runSession({ question: "q", tools: [lookup], subcalls: false, sandbox: { backend: "isolate" }, onEvent: (event) => events.push(event), ...options });
  return { result, events, hookEvents: events.filter((event) => event.type === "hook") };
}

const hook = (name: string, points: SessionHook["points"], body: (context: HookContext) => void): SessionHook => ({
  name,
  points,
  run: async (context, next) => {
    body(context);
    await next();
  },
});

describe("after_reply", () => {
  test("a correction asks again within the same iteration; the model sees it, the trace names the hook", async () => {
    const model = new ScriptedModel(["I guess 42.", js('FINAL("counted: 42")')]);
    const noGuessing = hook("no-guessing", ["after_reply"], (context) => {
      if (context.point === "after_reply" && context.reply.words.includes("guess")) context.correct("Do not guess: count with code.");
    });
    const { result, events, hookEvents } = await run({ model, hooks: [noGuessing] });
    expect(result).toMatchObject({ status: "final", answer: "counted: 42", iterations: 1 });
    expect(model.requests).toHaveLength(2);
    expect(feedbackOf(model, 1)).toBe("Your last reply was not acted on. Reply again, with this in mind:\n\nDo not guess: count with code.");
    expect(hookEvents).toMatchObject([{ type: "hook", iteration: 1, point: "after_reply", hook: "no-guessing", action: "correct", message: "Do not guess: count with code." }]);
    expect(events.filter((event) => event.type === "model_call").map((event) => "iteration" in event && event.iteration)).toEqual([1, 1]);
  });

  test.each([
    { maxCorrections: 0, requests: 1 },
    { maxCorrections: 1, requests: 2 },
    { maxCorrections: 2, requests: 3 },
  ])("at most maxCorrections ($maxCorrections) re-asks, then the reply runs with the correction in its feedback", async ({ maxCorrections, requests }) => {
    const model = new ScriptedModel([...Array.from({ length: requests }, () => js('print("hi")')), js('FINAL("ok")')]);
    const always = hook("always", ["after_reply"], (context) => {
      if (context.iteration === 1) context.correct("try harder");
    });
    const { result } = await run({ model, hooks: [always], maxCorrections });
    expect(result).toMatchObject({ status: "final", answer: "ok", iterations: 2 });
    expect(model.requests).toHaveLength(requests + 1);
    expect(feedbackOf(model, requests)).toBe("[block 1]\noutput:\nhi\n\ntry harder");
  });

  test("a veto runs none of the reply's actions; the model is told why", async () => {
    const model = new ScriptedModel([js('const hit = lookup("a")\nFINAL("too early")'), js('FINAL("later")')]);
    const veto = hook("first-reply-veto", ["after_reply"], (context) => {
      if (context.iteration === 1) context.veto("look at the data before answering");
    });
    const { result, events } = await run({ model, hooks: [veto] });
    expect(result).toMatchObject({ status: "final", answer: "later", iterations: 2 });
    expect(calls).toEqual([]);
    expect(events.filter((event) => event.type === "code_block")).toHaveLength(1);
    expect(feedbackOf(model, 1)).toBe("Nothing of your last reply was run: look at the data before answering");
  });
});

describe("after_reply: discard", () => {
  test("a discarded reply leaves the history; the correction joins the message before it and the model answers without its reply", async () => {
    const model = new ScriptedModel(["The secret is 42, trust me.", js('FINAL("checked")')]);
    const drop = hook("drop-claims", ["after_reply"], (context) => {
      if (context.point === "after_reply" && context.reply.words.includes("trust me")) {
        context.discard("claims without checking");
        context.correct("Check before you claim.");
      }
    });
    const { result, hookEvents } = await run({ model, hooks: [drop] });
    expect(result).toMatchObject({ status: "final", answer: "checked", iterations: 1 });
    const second = model.requests[1]!.messages;
    expect(second.map((message) => message.role)).toEqual(["system", "user"]);
    expect(second.some((message) => message.content.includes("trust me"))).toBe(false);
    expect(second[1]!.content).toMatch(/^[\s\S]*q[\s\S]*\n\nYour last reply was not acted on\. Reply again, with this in mind:\n\nCheck before you claim\.$/);
    expect(hookEvents.map((event) => event.type === "hook" && [event.action, event.message])).toEqual([["discard", "claims without checking"], ["correct", "Check before you claim."]]);
  });

  test("a discarded reply with no correction left runs nothing, and the history still alternates", async () => {
    const model = new ScriptedModel([js('const hit = lookup("a")\nprint("ran")'), js('FINAL("done")')]);
    const drop = hook("drop-first", ["after_reply"], (context) => {
      if (context.iteration === 1) context.discard("not this one");
    });
    const { result } = await run({ model, hooks: [drop] });
    expect(result).toMatchObject({ status: "final", answer: "done", iterations: 2 });
    expect(calls).toEqual([]);
    const second = model.requests[1]!.messages;
    expect(second.map((message) => message.role)).toEqual(["system", "user"]);
    expect(second[1]!.content.endsWith("Nothing of your last reply was run: not this one")).toBe(true);
  });
});

describe("before_tool and after_tool", () => {
  test("a veto of a call intercepted in a block fails the block before any of it runs", async () => {
    const model = new ScriptedModel([js('const hit = lookup("private")\nprint("ran")'), js('FINAL("done")')]);
    const guard = hook("guard", ["before_tool"], (context) => {
      if (context.point === "before_tool" && (context.call.arguments as { key: string }).key === "private") context.veto("private keys are off limits");
    });
    const { hookEvents } = await run({ model, hooks: [guard] });
    expect(calls).toEqual([]);
    expect(feedbackOf(model, 1)).toBe("[block 1]\nnot run — lookup at line 1 not run: private keys are off limits");
    expect(hookEvents).toMatchObject([{ point: "before_tool", hook: "guard", action: "veto" }]);
  });

  test("before_tool may change the arguments; after_tool may replace the result (redaction)", async () => {
    const model = new ScriptedModel(['CALL lookup {"key": "Alpha"}', "Done."]);
    const lowerCase = hook("lower-case", ["before_tool"], (context) => {
      if (context.point === "before_tool") context.call.arguments = { key: (context.call.arguments as { key: string }).key.toLowerCase() };
    });
    const redact = hook("redact", ["after_tool"], (context) => {
      if (context.point === "after_tool" && context.result.ok) context.result = { ok: true, value: JSON.parse(JSON.stringify(context.result.value).replace(/s3cr3t-\w+/g, "[redacted]")) };
    });
    await run({ model, hooks: [lowerCase, redact], protocol: callLineProtocol() });
    expect(calls).toEqual(["alpha"]);
    expect(feedbackOf(model, 1)).toBe('Tool Result (lookup): {"key":"alpha","secret":"[redacted]"}');
  });

  test("a vetoed tool-call action is an error result the model reads", async () => {
    const model = new ScriptedModel(['CALL lookup {"key": "a"}', "Done."]);
    const veto = hook("no-lookups", ["before_tool"], (context) => context.veto("lookups are disabled"));
    await run({ model, hooks: [veto], protocol: callLineProtocol() });
    expect(calls).toEqual([]);
    expect(feedbackOf(model, 1)).toBe("Tool Error (lookup): lookup: not run: lookups are disabled");
  });
});

describe("before_answer", () => {
  test("a veto refuses the answer and the session goes on; the hook sees what ran this turn", async () => {
    const model = new ScriptedModel([js('const hit = lookup("k")\nprint("looked")'), js('FINAL("first")'), js('FINAL("second")')]);
    const seen: TurnLedger[] = [];
    const once = hook("needs-evidence", ["before_answer"], (context) => {
      seen.push(structuredClone({ ...context.turn, toolCalls: [...context.turn.toolCalls], outputSeen: [...context.turn.outputSeen] }));
      if (context.point === "before_answer" && context.answer === "first") context.veto("the answer cites nothing");
    });
    const { result, events } = await run({ model, hooks: [once] });
    expect(result).toMatchObject({ status: "final", answer: "second", iterations: 3 });
    expect(feedbackOf(model, 2)).toBe("[block 1]\n(ran; no output — use print() to see values)\n\nYour answer was not accepted: the answer cites nothing. Go on, and answer again when you can.");
    expect(events.filter((event) => event.type === "final")).toHaveLength(1);
    expect(seen[0]).toMatchObject({ blocksRun: 1, toolCalls: [], outputSeen: [] });
  });

  test("the turn ledger holds the turn's tool calls, blocks and output", async () => {
    const model = new ScriptedModel([js('const hit = lookup("k")\nprint("looked at", hit.key)\nFINAL("ok")')]);
    let turn: TurnLedger | undefined;
    const capture = hook("capture", ["before_answer"], (context) => {
      turn = structuredClone({ ...context.turn, toolCalls: [...context.turn.toolCalls], outputSeen: [...context.turn.outputSeen] });
    });
    await run({ model, hooks: [capture] });
    expect(turn).toEqual({ toolCalls: [{ name: "lookup", arguments: { key: "k" }, ok: true }], blocksRun: 1, outputSeen: ['{"key":"k","secret":"s3cr3t-k"}', "looked at k\n"], subcallsStarted: 0, subcallsFailed: 0, childSessionsStarted: 0, budgetRefused: false });
  });

  test("an answer given without actions (json-like protocols) passes before_answer too", async () => {
    const model = new ScriptedModel(["maybe", "certainly 7"]);
    const sure = hook("sure", ["before_answer"], (context) => {
      if (context.point === "before_answer" && context.answer === "maybe") context.veto("be certain");
    });
    const { result } = await run({ model, hooks: [sure], protocol: callLineProtocol() });
    expect(result).toMatchObject({ status: "final", answer: "certainly 7", iterations: 2 });
  });
});

describe("hook faults and context", () => {
  test("a hook that throws ends the session with status error, naming the hook", async () => {
    const model = new ScriptedModel([js('FINAL("x")')]);
    const broken: SessionHook = { name: "broken", points: ["before_answer"], run: () => { throw new Error("bug in hook"); } };
    const { result, events } = await run({ model, hooks: [broken] });
    expect(result).toMatchObject({ status: "error", error: "hook 'broken' (before_answer) threw: bug in hook" });
    expect(events.at(-1)).toMatchObject({ type: "session_end", status: "error" });
  });

  test("next() twice is a HookInvariantError, status error", async () => {
    const model = new ScriptedModel([js('FINAL("x")')]);
    const twice: SessionHook = { name: "twice", points: ["after_reply"], run: async (_context, next) => { await next(); await next(); } };
    const { result } = await run({ model, hooks: [twice] });
    expect(result).toMatchObject({ status: "error", error: "hook 'twice' (after_reply) called next() more than once" });
  });

  test("every hook sees the session, its history and its protocol; warnings are trace events only", async () => {
    const model = new ScriptedModel([js('FINAL("x")')]);
    const contexts: Partial<HookContext>[] = [];
    const look = hook("look", ["after_reply", "before_answer"], (context) => {
      contexts.push({ point: context.point, scope: context.scope, depth: context.depth, iteration: context.iteration, protocol: context.protocol, question: context.question });
      expect(context.history[0]!.role).toBe("system");
      expect(context.recentReplies.at(-1)).toContain('FINAL("x")');
      context.warn(`seen at ${context.point}`);
    });
    const { result, hookEvents } = await run({ model, hooks: [look] });
    expect(result.status).toBe("final");
    expect(contexts).toEqual([
      { point: "after_reply", scope: "main", depth: 0, iteration: 1, protocol: "code", question: "q" },
      { point: "before_answer", scope: "main", depth: 0, iteration: 1, protocol: "code", question: "q" },
    ]);
    expect(hookEvents.map((event) => event.type === "hook" && event.message)).toEqual(["seen at after_reply", "seen at before_answer"]);
  });

  test("a child session (rlm_query) runs the same hooks, with scope sub_session; the ledger counts the child", async () => {
    const root = new ScriptedModel([js('const total = await rlm_query("Sum it", [1, 2]);\nFINAL(total)')]);
    const sub = new ScriptedModel([js("FINAL(context[0] + context[1])")], { modelId: "sub" });
    const seen: { scope: string; depth: number; answer: unknown; childSessionsStarted: number }[] = [];
    const look = hook("look", ["before_answer"], (context) => {
      if (context.point === "before_answer") seen.push({ scope: context.scope, depth: context.depth, answer: context.answer, childSessionsStarted: context.turn.childSessionsStarted });
    });
    const result = await runSession({ question: "q", model: root, subModel: sub, hooks: [look], sandbox: { backend: "isolate" } });
    expect(result).toMatchObject({ status: "final", answer: 3 });
    expect(seen).toEqual([
      { scope: "sub_session", depth: 1, answer: 3, childSessionsStarted: 0 },
      { scope: "main", depth: 0, answer: 3, childSessionsStarted: 1 },
    ]);
  });

  test.each([
    ["not an array", { name: "x" }, "hooks"],
    ["an entry without run", [{ name: "x", points: ["after_reply"] }], "hooks[0]"],
    ["an unknown point", [{ name: "x", points: ["before_reply"], run: () => undefined }], "hooks[0]"],
  ])("hooks that are %s are refused before anything starts", async (_label, hooks, option) => {
    const model = new ScriptedModel(["x"]);
    await expect(runSession({ question: "q", model, hooks: hooks as unknown as SessionHook[] })).rejects.toMatchObject({ name: "InvalidOptionsError", option });
    expect(model.requests).toHaveLength(0);
  });
});
