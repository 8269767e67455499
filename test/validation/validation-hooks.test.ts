import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNavTools, createValidator, defineTool, ScriptedModel, validationHooks, type HookContext, type NavTools, type ReadReply, type TurnLedger, type ValidationRoundReport, type ValidatorOptions } from "../../src/index.ts";
import { CORPUS_DIR } from "../support/validation-corpus.ts";

const ledger = (extra: Partial<TurnLedger> = {}): TurnLedger => ({ toolCalls: [], blocksRun: 0, outputSeen: [], subcallsStarted: 0, subcallsFailed: 0, childSessionsStarted: 0, budgetRefused: false, ...extra });
const js = (code: string): string => "```js\n" + code + "\n```";
const navRead = defineTool({ name: "nav_read", description: "Reads.", parameters: { type: "object", properties: { target: { type: "string" } }, required: ["target"], additionalProperties: false }, handler: () => null });

type Point = HookContext["point"];
interface Acted { readonly actions: [string, string][]; readonly context: HookContext }

/** Runs the validation hook at one point with a context built from `fields`, as the engine would. */
async function at(point: Point, fields: Record<string, unknown>, options: ValidatorOptions = {}, reports: ValidationRoundReport[] = [], nav?: NavTools, shared?: ReturnType<typeof validationHooks>): Promise<Acted & { hooks: ReturnType<typeof validationHooks> }> {
  const hooks = shared ?? validationHooks(createValidator(options), { onRound: (report) => reports.push(report) });
  const actions: [string, string][] = [];
  const context = {
    sessionId: "s1", depth: 0, scope: "main", iteration: 1, question: "Where are retries decided?", protocol: "code",
    turn: ledger(), history: [{ role: "system", content: "system" }, { role: "user", content: "Where are retries decided?" }], recentReplies: [],
    ...(nav ? { nav } : {}),
    correct: (message: string) => actions.push(["correct", message]),
    veto: (reason: string) => actions.push(["veto", reason]),
    warn: (message: string) => actions.push(["warn", message]),
    point,
    ...fields,
  } as unknown as HookContext;
  let nextCalls = 0;
  await hooks[0].run(context, async () => void nextCalls++);
  expect(nextCalls).toBe(1);
  return { actions, context, hooks };
}
const reply = (text: string): Record<string, unknown> => ({ response: { text, usage: { promptTokens: 1, completionTokens: 1 }, finishReason: "stop", model: "m" }, reply: { words: text, actions: [], history: { role: "assistant", content: text }, notes: [] } satisfies ReadReply });

let nav: NavTools;
beforeAll(async () => {
  nav = await createNavTools(join(CORPUS_DIR, "repo"), { cacheDir: false });
});
afterAll(async () => {
  await nav.close();
});

describe("the validator as session hooks", () => {
  test("after_reply: a violation becomes one correction and the reply's actions still run", async () => {
    const reports: ValidationRoundReport[] = [];
    const { actions } = await at("after_reply", reply("I'll check the retry policy next."), {}, reports);
    expect(actions.map(([kind]) => kind)).toEqual(["correct"]);
    expect(actions[0][1]).toContain("You said you would do something");
    expect(reports.map((report) => [report.point, report.phase, report.result.violations.map((violation) => violation.hook)])).toEqual([["after_reply", "post_inference", ["empty_promise"]]]);
  });

  test("after_reply: with haltInference the reply's actions are vetoed as well", async () => {
    const { actions } = await at("after_reply", reply("I'll check the retry policy next."), { hooks: { empty_promise: { haltInference: true } } });
    expect(actions.map(([kind]) => kind)).toEqual(["veto", "correct"]);
  });

  test("after_reply: a claim grounded in the feedback the reply answers is not a phantom", async () => {
    const history = [{ role: "system", content: "s" }, { role: "user", content: "q" }, { role: "assistant", content: "```js\n...\n```" }, { role: "user", content: "Block 1 output: 3 matches in src/retry.ts" }];
    const { actions } = await at("after_reply", { ...reply("I found 3 matches in src/retry.ts."), history });
    expect(actions).toEqual([]);
  });

  test("after_reply: a reply that invents its code's output is vetoed (fabricated_output halts by default) and corrected", async () => {
    const text = js('print(nav_search("retry"))') + "\nOutput: 3 matches\n" + js('FINAL("3 call sites")');
    const { actions } = await at("after_reply", reply(text));
    expect(actions.map(([kind]) => kind)).toEqual(["veto", "correct"]);
    expect(actions[0][1]).toMatch(/^fabricated_output: after writing code the reply states "Output: 3 matches"/);
  });

  test("after_reply: a reply repeating one of an earlier turn is a loop; the reply it replaces within the turn is not", async () => {
    const text = js('const hits = nav_search("retry")\nprint(hits)');
    const first = await at("after_reply", reply(text));
    expect(first.actions).toEqual([]);
    const again = await at("after_reply", reply(text), {}, [], undefined, first.hooks);
    expect(again.actions).toEqual([]);
    const later = await at("after_reply", { ...reply(text), iteration: 2 }, {}, [], undefined, first.hooks);
    expect(later.actions.map(([kind]) => kind)).toEqual(["correct"]);
    expect(later.actions[0][1]).toContain("Your reply repeats an earlier one");
  });

  test("before_tool: arguments that break the schema veto the call with the correction as its error", async () => {
    const { actions } = await at("before_tool", { call: { id: "c1", name: "nav_read", arguments: { target: 3 } }, tool: navRead });
    expect(actions.map(([kind]) => kind)).toEqual(["veto"]);
    expect(actions[0][1]).toContain("- target must be string");
  });

  test("after_tool: a secret in the result is replaced before the model sees it", async () => {
    const { actions, context } = await at("after_tool", { call: { id: "c1", name: "nav_read", arguments: { target: "a" } }, result: { ok: true, value: { text: "key AKIA2E0A8F3B244C9986" } } });
    expect(actions).toEqual([]);
    expect((context as Extract<HookContext, { point: "after_tool" }>).result).toEqual({ ok: true, value: { text: "key [REDACTED AWS access key]" } });
  });

  test("before_answer: a citation that does not hold what it claims refuses the answer and corrects it", async () => {
    const { actions } = await at("before_answer", { answer: "`retryDelay` (src/retry.ts:16) computes the delay.", words: "" }, {}, [], nav);
    expect(actions.map(([kind]) => kind)).toEqual(["veto", "correct"]);
    expect(actions[1][1]).toContain("src/retry.ts:16 does not contain `retryDelay`");
  });

  test("before_answer: an answer after a failed call that does not say so is refused", async () => {
    const turn = ledger({ toolCalls: [{ name: "nav_read", arguments: {}, ok: false, error: "not found" }], blocksRun: 1 });
    const { actions } = await at("before_answer", { answer: "The client retries 3 times.", words: "", turn });
    expect(actions[0]).toEqual(["veto", expect.stringMatching(/^final_after_failure: /)]);
    expect(actions[1][1]).toContain("- nav_read failed: not found");
  });

  test("before_answer in a child session: the question is the objective the answer is judged against", async () => {
    const model = new ScriptedModel([JSON.stringify({ violations: [{ hook: "objective_completion", reason: "one of four" }] }), '{"violation": true, "reason": "only chapter 1"}']);
    const { actions } = await at("before_answer", { answer: "Chapter 1 is about retries.", words: "", scope: "sub_session", depth: 1, question: "Summarise the four chapters." }, { model });
    expect(model.requests[1].messages[0].content).toContain("Objective:\nSummarise the four chapters.");
    expect(actions.map(([kind]) => kind)).toEqual(["veto", "correct"]);
  });
});
