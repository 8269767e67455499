import { describe, expect, test } from "vitest";
import { runSession, ScriptedModel, type ModelRequest, type SessionEvent } from "../../src/index.ts";
import { renderTraceHtml } from "../../src/view/index.ts";
import { js } from "../support/scripted-replies.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A sub-model whose replies depend on the child's question (children run in any order). */
function childModel(answers: Record<string, (request: ModelRequest) => string | Promise<string>>, count = 20): ScriptedModel {
  return new ScriptedModel(
    Array.from({ length: count }, () => (request) => {
      const question = request.messages.find((message) => message.role === "user")!.content;
      const key = Object.keys(answers).find((objective) => question.includes(objective));
      if (!key) throw new Error(`no answer for: ${question.slice(0, 80)}`);
      return answers[key]!(request);
    }),
    { modelId: "child" },
  );
}

describe("runSession({ backgroundSessions: true })", () => {
  test("the root spawns two tasks, the second after the first, awaits them and answers; the trace shows the tasks and their child sessions", async () => {
    const events: SessionEvent[] = [];
    const subModel = childModel({
      "write the cheatsheet": async () => {
        await sleep(50);
        return js('FINAL("sheet v1")');
      },
      "review the cheatsheet": () => js('FINAL(context.sheet + " reviewed")'),
    });
    const model = new ScriptedModel([
      js('const first = spawn_sub_session("write the cheatsheet", "sheet")\nconst second = spawn_sub_session("review the cheatsheet", "review", ["sheet"])\nprint(JSON.stringify([first.started, second.started]))'),
      js('const done = await_sub_sessions()\nFINAL(done)'),
    ]);
    const result = await runSession({ question: "Make a cheatsheet.", model, subModel, backgroundSessions: true, sandbox: { backend: "isolate" }, onEvent: (event) => events.push(event) });
    expect(model.requests[1]!.messages.at(-1)!.content).toContain('[["sheet"],["review"]]');
    expect(result.answer).toEqual({ tasks: [{ id: "sheet", state: "done", answer: "sheet v1" }, { id: "review", state: "done", depends_on: ["sheet"], answer: "sheet v1 reviewed" }], pending: [] });
    const tasks = events.filter((event) => event.type === "background_task").map((event) => `${event.taskId}:${event.state}`);
    expect(tasks.filter((task) => task.startsWith("sheet:"))).toEqual(["sheet:waiting", "sheet:running", "sheet:done"]);
    expect(tasks.filter((task) => task.startsWith("review:"))).toEqual(["review:waiting", "review:running", "review:done"]);
    expect(tasks.indexOf("review:running")).toBeGreaterThan(tasks.indexOf("sheet:done"));
    const children = events.filter((event) => event.type === "session_start" && event.depth === 1);
    expect(children).toHaveLength(2);
    expect(children.every((event) => event.type === "session_start" && event.parentSessionId === result.sessionId)).toBe(true);
    expect(result.usage.byDepth["1"]!.modelCalls).toBe(2);
    // The view shows both children, each with its question, and the tasks' states.
    const html = renderTraceHtml(events);
    expect(html.match(/data-testid="subcall"/g)).toHaveLength(2);
    expect(html).toContain("review the cheatsheet");
    expect(html).toContain("background_task");
  });

  test("the children spend the root's budget: once it runs out, the task fails saying so, and the root's result counts the children's calls", async () => {
    const subModel = childModel({ "count to three": () => js("print(1)") });
    const model = new ScriptedModel([js('const t = spawn_sub_session("count to three")\nconst r = await_sub_sessions()\nFINAL(r)')]);
    const result = await runSession({ question: "q", model, subModel, backgroundSessions: true, budget: { maxModelCalls: 4 }, sandbox: { backend: "isolate" } });
    expect(result.status).toBe("budget_exceeded");
    expect(result.answer).toMatchObject({ tasks: [{ id: "task_1", state: "failed", error: expect.stringMatching(/^the child session ended with status 'budget_exceeded': budget exceeded \(maxModelCalls\): the limit is 4 model calls/) }], pending: [] });
    // One root turn and three child turns: the fourth call the tree allowed.
    expect(result.usage.modelCalls).toBe(4);
    expect(result.usage.byDepth["1"]!.modelCalls).toBe(3);
  });
});

describe("runSession({ nlTools, translatorModel }): spawn_sub_session by description", () => {
  test("a description becomes two tasks, the second after the first; the result says what it was translated to", async () => {
    const events: SessionEvent[] = [];
    const translator = new ScriptedModel([JSON.stringify([{ objective: "Research X and write notes." }, { objective: "Review the notes in your context.", depends_on_previous: true }])], { modelId: "translator" });
    const subModel = childModel({ "Research X": () => js('FINAL("notes")'), "Review the notes": () => js('FINAL("reviewed " + JSON.stringify(context))') });
    const model = new ScriptedModel([
      js('const r = spawn_sub_session("research X and write notes, then after that review them")\nprint(r)'),
      js("const all = await_sub_sessions()\nFINAL(all.tasks.map((t) => t.answer))"),
    ]);
    const result = await runSession({ question: "q", model, subModel, translatorModel: translator, backgroundSessions: true, nlTools: ["spawn_sub_session"], sandbox: { backend: "isolate" }, onEvent: (event) => events.push(event) });
    expect(model.requests[0]!.messages[0]!.content).toContain("spawn_sub_session(description: string)");
    const feedback = model.requests[1]!.messages.at(-1)!.content;
    expect(feedback).toContain('[Translated to: objective="Research X and write notes."]');
    expect(feedback).toContain('[Translated to: objective="Review the notes in your context.", depends_on_previous=true]');
    expect(result.answer).toEqual(["notes", 'reviewed {"task_1":"notes"}']);
    expect(events.filter((event) => event.type === "translation")).toMatchObject([{ tool: "spawn_sub_session", status: "translated", model: "translator", calls: { length: 2 } }]);
    expect(result.usage.byModel.translator!.modelCalls).toBe(1);
  });

  test("without a translatorModel the sub-model translates; a question comes back as the result", async () => {
    const subModel = new ScriptedModel(['{"error": "missing_info", "clarification_needed": "Which task?"}'], { modelId: "sub" });
    const model = new ScriptedModel([js('const r = spawn_sub_session("do the thing")\nFINAL(r)')]);
    const result = await runSession({ question: "q", model, subModel, backgroundSessions: true, nlTools: true, sandbox: { backend: "isolate" } });
    expect(result.answer).toBe("[Translation needs clarification] Which task? Call spawn_sub_session again with a fuller description.");
    expect(subModel.requests[0]!.messages[0]!.content).toContain("tool-call translator");
  });
});
