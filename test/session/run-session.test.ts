import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { defineTool, OpenAICompatibleModel, runSession, ScriptedModel, type SessionEvent } from "../../src/index.ts";
import { startOpenAIServer } from "../support/openai-server.ts";
import { js, feedbackOf } from "../support/scripted-replies.ts";
import { tempDir } from "../support/temp-dir.ts";

/** A tool that records its calls, for asserting what ran in the host. */
function recordingTool(name = "test_info", result: unknown = { files: 3, name: "demo" }) {
  const calls: Record<string, unknown>[] = [];
  const tool = defineTool({
    name,
    description: "Returns facts about the test input.",
    parameters: { type: "object", properties: { topic: { type: "string" }, options: { type: "object", properties: { limit: { type: "number" } }, additionalProperties: false } } },
    handler: (args) => {
      calls.push(args);
      return result as any;
    },
  });
  return { tool, calls };
}

describe("runSession with ScriptedModel", () => {
  test("an intercepted tool call's result reaches FINAL", async () => {
    const { tool, calls } = recordingTool();
    const model = new ScriptedModel([js("const info = test_info(); FINAL(info)")]);
    const result = await runSession({ question: "What is it?", model, tools: [tool] });
    expect(result).toMatchObject({ status: "final", answer: { files: 3, name: "demo" }, iterations: 1 });
    expect(calls).toEqual([{}]);
    expect(result.usage.modelCalls).toBe(1);
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("FINAL(\"\") is a valid answer", async () => {
    const result = await runSession({ question: "q", model: new ScriptedModel([js('FINAL("")')]) });
    expect(result).toMatchObject({ status: "final", answer: "" });
  });

  test("FINAL in prose or in a python fence is never the answer", async () => {
    const model = new ScriptedModel([
      "The answer is FINAL(41).\n```python\nFINAL(42)\n```\n```js\nprint('looking')\n```",
      js("FINAL(43)"),
    ]);
    const result = await runSession({ question: "q", model });
    expect(result).toMatchObject({ status: "final", answer: 43, iterations: 2 });
    expect(feedbackOf(model, 1)).toContain("looking");
  });

  test("FINAL_VAR answers with a variable from an earlier block", async () => {
    const model = new ScriptedModel([js("const total = [1, 2, 3].reduce((a, b) => a + b)"), js('FINAL_VAR("total")')]);
    expect(await runSession({ question: "q", model })).toMatchObject({ status: "final", answer: 6 });
  });

  test("two tool calls and a plain assignment on one line get their own values", async () => {
    const first = defineTool({ name: "one", description: "1", parameters: { type: "object", properties: {} }, handler: () => "first" });
    const second = defineTool({ name: "two", description: "2", parameters: { type: "object", properties: {} }, handler: () => "second" });
    const model = new ScriptedModel([js('const a = one(); const z = "plain"; const b = two(); FINAL([a, z, b])')]);
    expect(await runSession({ question: "q", model, tools: [first, second] })).toMatchObject({ answer: ["first", "plain", "second"] });
  });

  test("tool calls inside functions or if blocks are not run, and the block runs nothing", async () => {
    const { tool, calls } = recordingTool();
    const model = new ScriptedModel([
      js('print("side effect")\nif (true) { const x = test_info() }\nfunction f() { return test_info() }'),
      js("FINAL(1)"),
    ]);
    const result = await runSession({ question: "q", model, tools: [tool] });
    expect(calls).toHaveLength(0);
    const feedback = feedbackOf(model, 1);
    expect(feedback).toContain("not run — 2 problems");
    expect(feedback).toContain("line 2, column 23");
    expect(feedback).toContain("line 3, column 23");
    expect(feedback).not.toContain("side effect");
    expect(result.status).toBe("final");
  });

  test("calling a tool by another route throws an error that teaches the accepted form", async () => {
    const { tool, calls } = recordingTool();
    const model = new ScriptedModel([js('const name = "test_" + "info";\nglobalThis[name]()'), js("FINAL(1)")]);
    await runSession({ question: "q", model, tools: [tool] });
    expect(calls).toHaveLength(0);
    expect(feedbackOf(model, 1)).toMatch(/error: Error: test_info can only be called as a top-level statement.*\(line 2, column \d+\)/);
  });

  test("positional arguments are mapped by schema order and validated before the handler runs", async () => {
    const { tool, calls } = recordingTool();
    const model = new ScriptedModel([
      js('const a = test_info("x", {limit: 2})'),
      js('const b = test_info(5)\nprint("not reached")'),
      js('const c = test_info("x", {limt: 2})'),
      js("FINAL(1)"),
    ]);
    await runSession({ question: "q", model, tools: [tool] });
    expect(calls).toEqual([{ topic: "x", options: { limit: 2 } }]);
    expect(feedbackOf(model, 2)).toMatch(/test_info at line 1: test_info: topic must be string/);
    expect(feedbackOf(model, 2)).not.toContain("not reached");
    expect(feedbackOf(model, 3)).toMatch(/unknown option 'limt'/);
  });

  test("a tool that throws fails the block with its name, line and arguments, and says the tool failed (not the arguments)", async () => {
    const broken = defineTool({ name: "broken", description: "fails", parameters: { type: "object", properties: { id: { type: "string" } } }, handler: () => { throw new Error("no such id"); } });
    const model = new ScriptedModel([js('print("before")\n\nconst r = broken("abc")'), js("FINAL(1)")]);
    await runSession({ question: "q", model, tools: [broken] });
    const feedback = feedbackOf(model, 1);
    expect(feedback).toContain('broken at line 3 (broken("abc")): the tool failed in the host. This is not a problem with your code or its arguments');
    expect(feedback).not.toContain("before");
  });

  test("a tool result over the size cap is cut with a notice", async () => {
    const { tool } = recordingTool("big", { text: "x".repeat(50_000), path: "a.txt" });
    const model = new ScriptedModel([js("const r = big(); print(r.path, r.text.length < 50000)"), js("FINAL(1)")]);
    await runSession({ question: "q", model, tools: [tool], maxToolResultChars: 10_000 });
    const feedback = feedbackOf(model, 1);
    expect(feedback).toMatch(/r = big\(\) → 50,0\d\d characters of JSON \(over the 10,000-character limit: cut/);
    expect(feedback).toContain("a.txt true");
  });

  test("runtime errors carry the line and column of the model's own code", async () => {
    const { tool } = recordingTool();
    const model = new ScriptedModel([
      js('const info = test_info(\n  "multi-line call"\n)\nconst n = 1\nnull.boom'),
      js("FINAL(1)"),
    ]);
    await runSession({ question: "q", model, tools: [tool] });
    expect(feedbackOf(model, 1)).toContain("error: TypeError: Cannot read properties of null (reading 'boom') (line 5, column 6)\n    5 | null.boom");
  });

  test("a syntax error is reported with its position and nothing runs", async () => {
    const model = new ScriptedModel([js('print("x")\nconst = 3'), js("FINAL(1)")]);
    await runSession({ question: "q", model });
    expect(feedbackOf(model, 1)).toContain("line 2, column 7: SyntaxError: Unexpected token");
  });

  test("state persists across blocks and re-declaration works", async () => {
    const model = new ScriptedModel([js("const x = 1"), js("const x = 2; let y = x * 10"), js("FINAL(x + y)")]);
    expect(await runSession({ question: "q", model })).toMatchObject({ answer: 22 });
  });

  test("after a timeout the model is told its variables were lost, and the session goes on", async () => {
    const model = new ScriptedModel([js("const keep = 1"), js("while (true) {}"), js("print(typeof keep, context)"), js("FINAL(1)")]);
    const result = await runSession({ question: "q", context: "still here", model, sandbox: { timeoutMs: 300 } });
    expect(feedbackOf(model, 2)).toContain("did not finish within 300 ms");
    expect(feedbackOf(model, 2)).toContain("every variable you defined is gone");
    expect(feedbackOf(model, 3)).toContain("undefined still here");
    expect(result.status).toBe("final");
  });

  test("a reply without code gets a nudge; after two nudges in a row the session ends with status no_code", async () => {
    const nudgedOnce = new ScriptedModel(["I think it is 4.", js("FINAL(4)")]);
    expect(await runSession({ question: "q", model: nudgedOnce })).toMatchObject({ status: "final", answer: 4, iterations: 2 });
    expect(feedbackOf(nudgedOnce, 1)).toContain("no ```js code block");
    const silent = new ScriptedModel(["no code", "```\nFINAL(1)\n```", "<think>```js\nFINAL(1)\n```</think>"]);
    const result = await runSession({ question: "q", model: silent });
    expect(result).toMatchObject({ status: "no_code", iterations: 3 });
    expect(result.error).toContain("3 replies in a row (the last one: it was only reasoning");
  });

  test("stops at maxIterations, warning the model before its last turn", async () => {
    const model = new ScriptedModel([js("print(1)"), js("print(2)"), js("print(3)")]);
    const result = await runSession({ question: "q", model, maxIterations: 3 });
    expect(result).toMatchObject({ status: "max_iterations", iterations: 3 });
    expect(result.answer).toBeUndefined();
    expect(feedbackOf(model, 2)).toContain("This is your last turn");
  });

  test("a session timeout ends the session with status timeout", async () => {
    const model = new ScriptedModel([js("const x = 1"), () => new Promise<string>((resolve) => setTimeout(() => resolve(js("FINAL(1)")), 2_000))]);
    const result = await runSession({ question: "q", model, timeoutMs: 300 });
    expect(result.status).toBe("timeout");
    expect(result.error).toContain("300 ms");
  });

  test("a model failure ends the session with status error and the model's message", async () => {
    const model = new ScriptedModel([]);
    const result = await runSession({ question: "q", model });
    expect(result.status).toBe("error");
    expect(result.error).toMatch(/model call failed: ScriptedModel ran out of replies/);
  });

  test("a multi-megabyte context loads once and blocks over it run normally", async () => {
    const context = "line of log text with ERROR sometimes\n".repeat(150_000); // ~5.7 MB
    const model = new ScriptedModel([js("const n = context.split('\\n').filter((l) => l.includes('ERROR')).length; print(n)"), js("FINAL(context.length)")]);
    const result = await runSession({ question: "q", context, model });
    expect(result).toMatchObject({ status: "final", answer: context.length });
    expect(feedbackOf(model, 1)).toContain("150000");
    expect(model.requests[0].messages[0].content).toContain(`a string of ${context.length.toLocaleString("en-US")} characters`);
  });

  test("a JSON context is exposed as a value", async () => {
    const model = new ScriptedModel([js("FINAL(context.items.length + context.name.length)")]);
    expect(await runSession({ question: "q", context: { items: [1, 2, 3], name: "ab" }, model })).toMatchObject({ answer: 5 });
  });

  test("the system prompt shows tool signatures, and errors never show host paths", async () => {
    const { tool } = recordingTool();
    const model = new ScriptedModel([js("throw new Error('at ' + 'x')"), js("FINAL(1)")]);
    await runSession({ question: "Where?", model, tools: [tool] });
    const system = model.requests[0].messages[0].content;
    expect(system).toContain("`test_info(topic?: string, options?: {limit?: number})` — Returns facts about the test input.");
    expect(model.requests[0].messages[1].content).toBe("Question: Where?\n");
    for (const request of model.requests) for (const message of request.messages) expect(message.content).not.toContain(process.cwd());
  });

  test("events go to onEvent and to a JSONL trace as they happen", async () => {
    const { tool } = recordingTool();
    const tracePath = join(tempDir("rlmkit-trace-"), "nested", "trace.jsonl");
    const events: SessionEvent[] = [];
    const model = new ScriptedModel([js("const info = test_info()\nprint(info.files)"), js("FINAL(info.name)")]);
    const result = await runSession({ question: "q", model, tools: [tool], tracePath, onEvent: (event) => events.push(event) });
    const lines = readFileSync(tracePath, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(lines.map((line) => line.type)).toEqual(events.map((event) => event.type));
    expect(lines.map((line) => line.type)).toEqual([
      "session_start", "model_call", "code_block", "tool_call", "sandbox_result", "feedback", "model_call", "code_block", "sandbox_result", "final", "session_end",
    ]);
    expect(lines.every((line) => line.sessionId === result.sessionId)).toBe(true);
    const toolCall = lines.find((line) => line.type === "tool_call");
    expect(toolCall).toMatchObject({ tool: "test_info", args: [], line: 1, result: { files: 3, name: "demo" } });
    expect(toolCall.injectedAs).toMatch(/^__rlm_[0-9a-f]{14}_0$/);
    expect(lines.at(-1)).toMatchObject({ type: "session_end", status: "final", answer: "demo" });
  });

  test("invalid options are rejected with a clear message", async () => {
    const model = new ScriptedModel([]);
    await expect(runSession({ question: "", model })).rejects.toThrow(/question must be a non-empty string/);
    await expect(runSession({ question: "q", model, maxIterations: 0 })).rejects.toThrow(/maxIterations must be a positive integer/);
    await expect(runSession({ question: "q", model: {} as any })).rejects.toThrow(/model must be a ModelClient/);
  });
});

describe("runSession with OpenAICompatibleModel against a loopback server", () => {
  test.each([false, true])("stream: %s", async (stream) => {
    await using server = await startOpenAIServer([
      { text: "Let me check.\n" + js("const info = test_info(); print(info.files)"), usage: { prompt_tokens: 100, completion_tokens: 20 } },
      { text: js("FINAL(`files: ${info.files}`)"), usage: { prompt_tokens: 150, completion_tokens: 10 } },
    ] as any);
    const { tool } = recordingTool();
    const model = new OpenAICompatibleModel({ baseURL: server.url, model: "loopback-model", stream });
    const result = await runSession({ question: "How many files?", model, tools: [tool] });
    expect(result).toMatchObject({ status: "final", answer: "files: 3", iterations: 2 });
    expect(result.usage).toMatchObject({ promptTokens: 250, completionTokens: 30, modelCalls: 2, costUsd: 0, unpricedModels: ["loopback-model"] });
    expect(server.requests).toHaveLength(2);
    const second = server.requests[1].body as any;
    expect(second.model).toBe("loopback-model");
    expect(second.messages.at(-1).content).toContain("output:\n3");
  });
});
