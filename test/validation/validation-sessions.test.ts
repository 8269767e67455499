import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runSession, ScriptedModel, type ModelClient, type SessionEvent } from "../../src/index.ts";
import { renderTraceHtml } from "../../src/view/index.ts";
import { feedbackOf, js } from "../support/scripted-replies.ts";
import { CORPUS_DIR } from "../support/validation-corpus.ts";

const repo = join(CORPUS_DIR, "repo");
type Validation = Extract<SessionEvent, { type: "validation" }>;
const validations = (events: readonly SessionEvent[]): Validation[] => events.filter((event): event is Validation => event.type === "validation");

async function run(replies: ConstructorParameters<typeof ScriptedModel>[0], options: Partial<Parameters<typeof runSession>[0]> = {}) {
  const model = new ScriptedModel(replies);
  const events: SessionEvent[] = [];
  const result = await runSession({ question: "How are retries decided?", model, repo, validation: {}, sandbox: { backend: "isolate" }, navOptions: { cacheDir: false }, onEvent: (event) => events.push(event), ...options });
  return { model, events, result };
}

describe("sessions with validation", () => {
  test("a model claims a finding without running code, is corrected, then runs code and answers", async () => {
    const { model, events, result } = await run([
      "I searched the repository and found that retries are decided by shouldRetry in src/retry.ts, which retries on 429 and 5xx.",
      js('const hits = nav_search("shouldRetry")\nprint(`found ${hits.matches.length} in ${hits.matches[0].path}`)'),
      (request) => js(`FINAL(${JSON.stringify(`shouldRetry decides (${/found \d+ in (\S+)/.exec(request.messages.at(-1)!.content)![1]})`)})`),
    ]);
    expect(result.status).toBe("final");
    expect(result.answer).toBe("shouldRetry decides (src/retry.ts)");
    expect(feedbackOf(model, 1)).toContain("You presented data as if a tool or your code had produced it, but nothing was run to get it");
    expect(validations(events).filter((event) => event.violations.length > 0).map((event) => [event.point, event.violations.map((violation) => violation.hook)])).toEqual([["after_reply", ["phantom_tool_result"]]]);
    expect(events.filter((event) => event.type === "hook").map((event) => event.type === "hook" && [event.hook, event.action])).toEqual([["validation", "correct"]]);
    // Every round is recorded, clean ones too: three replies, three after_reply rounds, each naming the hooks it ran.
    const afterReply = validations(events).filter((event) => event.point === "after_reply");
    expect(afterReply.map((event) => event.violations.length)).toEqual([1, 0, 0]);
    for (const event of afterReply) expect(event.checked).toEqual(expect.arrayContaining(["phantom_tool_result", "fabricated_output", "empty_promise", "workflow_spawn", "repetition_loop"]));
    expect(validations(events).filter((event) => event.point === "before_tool").map((event) => event.checked)).toEqual([["tool_schema_validation"]]);
  });

  test("killOnDetect drops the violating reply from the history: the model answers the correction without it", async () => {
    const claim = "I searched the repository and found that retries are decided by shouldRetry in src/retry.ts, which retries on 429 and 5xx.";
    const { model, events, result } = await run([claim, js('const hits = nav_search("shouldRetry")\nFINAL(hits.matches[0].path)')], { validation: { hooks: { phantom_tool_result: { killOnDetect: true } } } });
    expect(result).toMatchObject({ status: "final", answer: "src/retry.ts" });
    const second = model.requests[1]!.messages;
    // The reply is gone (the correction quotes the claim it names, nothing more).
    expect(second.map((message) => message.role)).toEqual(["system", "user"]);
    expect(second[1]!.content.startsWith("Question: How are retries decided?")).toBe(true);
    expect(second.at(-1)!.content).toContain("You presented data as if a tool or your code had produced it, but nothing was run to get it");
    expect(events.filter((event) => event.type === "hook").map((event) => event.type === "hook" && event.action)).toEqual(["discard", "correct"]);
  });

  test("a model invents a block's output and answers in the same reply, is corrected, and answers from the real output", async () => {
    const invented = js('const hits = nav_search("retryDelay")\nprint(`count=${hits.matches.length}`)') + "\nOutput: count=7\n\nSo it is used 7 times.\n" + js('FINAL("7 uses")');
    const { model, events, result } = await run([
      invented,
      js('const hits = nav_search("retryDelay")\nprint(`count=${hits.matches.length}`)'),
      (request) => js(`FINAL(${JSON.stringify(`${/count=(\d+)/.exec(request.messages.at(-1)!.content)![1]} uses`)})`),
    ]);
    expect(result.status).toBe("final");
    expect(result.answer).not.toBe("7 uses");
    expect(result.answer).toMatch(/^[0-6] uses$/);
    expect(feedbackOf(model, 1)).toContain("You wrote code and then stated its output yourself");
    // Nothing of the invented reply ran: one search only, the corrected reply's, asked again within the same turn.
    expect(events.filter((event) => event.type === "tool_call").map((event) => event.type === "tool_call" && event.iteration)).toEqual([1]);
    expect(validations(events)[0]).toMatchObject({ point: "after_reply", phase: "post_inference", violations: [{ hook: "fabricated_output" }] });
  });

  test("an answer citing a line that does not hold what it claims is refused and corrected", async () => {
    const { model, events, result } = await run([
      js('FINAL("The delay is computed by `retryDelay` (src/retry.ts:16).")'),
      js('const hits = nav_search("function retryDelay")\nprint(`${hits.matches[0].path}:${hits.matches[0].line}`)'),
      (request) => js(`FINAL(${JSON.stringify(`The delay is computed by \`retryDelay\` (${/(src\/retry\.ts:\d+)/.exec(request.messages.at(-1)!.content)![1]}).`)})`),
    ]);
    expect(result.status).toBe("final");
    expect(result.answer).toBe("The delay is computed by `retryDelay` (src/retry.ts:10).");
    expect(feedbackOf(model, 1)).toContain("- src/retry.ts:16 does not contain `retryDelay`");
    expect(validations(events).filter((event) => event.violations.length > 0).map((event) => [event.point, event.violations.map((violation) => violation.hook)])).toEqual([["before_answer", ["ungrounded_citation"]]]);
    const html = renderTraceHtml(events);
    expect(html).toContain('data-testid="validation"');
    expect(html).toContain("src/retry.ts:16 does not contain `retryDelay`");
    // The view shows the round that found something, not the clean ones.
    expect(html.match(/data-testid="validation"/g)).toHaveLength(1);
  });

  test("a child session's answer is judged against its question (objective_completion, scope sub_session) by the validator model", async () => {
    // A validator model that flags an answer promising work instead of doing it, when the round has an objective.
    const prompts: string[] = [];
    const validator: ModelClient = {
      modelId: "validator",
      complete: async (request) => {
        const prompt = request.messages[0]!.content;
        prompts.push(prompt);
        const promises = prompt.includes("Objective:") && prompt.includes("I'll check the chapter");
        const text = prompt.startsWith("You confirm or reject") ? '{"violation": true, "reason": "no summary was given"}' : JSON.stringify({ violations: promises ? [{ hook: "objective_completion", reason: "it promises instead of answering" }] : [] });
        return { text, usage: { promptTokens: 1, completionTokens: 1 }, finishReason: "stop", model: "validator" };
      },
    };
    const subModel = new ScriptedModel([js('FINAL("I\'ll check the chapter later.")'), js('FINAL("Chapter 1: retries.")')]);
    const model = new ScriptedModel([js('FINAL(await rlm_query("Summarise chapter 1.", "retries"))')]);
    const events: SessionEvent[] = [];
    const result = await runSession({ question: "q", context: "c", model, subModel, validation: { model: validator, hooks: { empty_promise: false } }, sandbox: { backend: "isolate" }, onEvent: (event) => events.push(event) });
    expect(result.answer).toBe("Chapter 1: retries.");
    const flagged = validations(events).filter((event) => event.violations.length > 0);
    expect(flagged.map((event) => [event.depth, event.point, event.violations.map((violation) => violation.hook)])).toEqual([[1, "before_answer", ["objective_completion"]]]);
    expect(prompts.some((prompt) => prompt.includes("Objective:\nSummarise chapter 1."))).toBe(true);
    expect(prompts.filter((prompt) => prompt.includes("- objective_completion:")).every((prompt) => prompt.includes("a child session"))).toBe(true);
  });

  test("without a validator model of its own, validation uses the session's sub-model", async () => {
    const subModel = new ScriptedModel(['{"violations": []}', '{"violations": []}']);
    const { result } = await run([js('FINAL("retries are in src/retry.ts")')], { subModel, subcalls: false });
    expect(result.status).toBe("final");
    expect(subModel.requests[0].messages[0].content).toMatch(/^You check one reply of an AI model/);
  });

  test.each([
    ["json", '{"tool": "nav_search", "arguments": {"query": "function retryDelay"}}'],
    ["tagged", '<nav_search>\n{"query": "function retryDelay"}\n</nav_search>'],
  ] as const)("in the %s protocol, a promise in a text-only reply (which would be taken as the answer) is corrected before it is accepted", async (protocol, call) => {
    const { model, events, result } = await run(["I'll check where retryDelay is defined and get back to you.", call, (request) => `It is ${/"path":"([^"]+)","line":(\d+)/.exec(request.messages.at(-1)!.content)!.slice(1).join(":")}.`], { protocol });
    expect(result).toMatchObject({ status: "final", answer: "It is src/retry.ts:10." });
    expect(feedbackOf(model, 1)).toContain("You said you would do something but your reply does not do it");
    expect(validations(events).filter((event) => event.violations.length > 0).map((event) => event.violations.map((violation) => violation.hook))).toEqual([["empty_promise"]]);
  });

  test("a malformed custom-hook file is reported in the trace and the built-ins run", async () => {
    const { events, result } = await run(["I'll check the retry code.", js('FINAL("done")')], { validation: { customHooks: join(CORPUS_DIR, "repo", "src", "retry.ts") } });
    expect(result.status).toBe("final");
    const [problems, round] = validations(events);
    expect(problems.point).toBeUndefined();
    expect(problems.notes.at(-1)).toMatch(/using the built-in hooks$/);
    expect(round.violations.map((violation) => violation.hook)).toEqual(["empty_promise"]);
  });
});
