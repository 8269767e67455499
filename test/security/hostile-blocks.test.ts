import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { defineTool, runSession, ScriptedModel, type ModelRequest } from "../../src/index.ts";
import { js, feedbackOf } from "../support/scripted-replies.ts";
import { tempDir } from "../support/temp-dir.ts";

const infoTool = defineTool({
  name: "test_info",
  description: "Returns facts about the test input.",
  parameters: { type: "object", properties: {} },
  handler: () => ({ files: 3 }),
});

const optionsTool = defineTool({
  name: "test_opts",
  description: "Takes options.",
  parameters: { type: "object", properties: { options: { type: "object", properties: { limit: { type: "number" } }, additionalProperties: false } } },
  handler: () => 1,
});

describe("a hostile block cannot end the session with a host error", () => {
  test.each([
    ["the global object made non-extensible", "Object.preventExtensions(globalThis)"],
    ["the next injected name taken by a read-only accessor", "const first = test_info(); const taken = Object.keys(globalThis).find((n) => n.startsWith('__r' + 'lm')).replace(/_0$/, '_1'); Object.defineProperty(globalThis, taken, { get() { return 'spoofed' } })"],
  ])("%s: the tool result cannot be injected, the model is told, the session goes on", async (_label, hostile) => {
    const model = new ScriptedModel([js(hostile), js("const info = test_info(); print(info)"), js('FINAL("done")')]);
    const result = await runSession({ question: "q", model, tools: [infoTool] });
    expect(result).toMatchObject({ status: "final", answer: "done" });
    expect(feedbackOf(model, 2)).toContain("not run — test_info at line 1 ran, but its result could not be handed to the sandbox");
    expect(feedbackOf(model, 2)).not.toContain("spoofed");
  });

  test("a FINAL value nested thousands of levels deep is refused in the block, and the trace stays writable", async () => {
    const tracePath = join(tempDir("rlmkit-security-"), "trace.jsonl");
    const model = new ScriptedModel([js("let v = []; for (let i = 0; i < 5000; i++) v = [v]; FINAL(v)"), js('FINAL("shallow")')]);
    const result = await runSession({ question: "q", model, tracePath });
    expect(result).toMatchObject({ status: "final", answer: "shallow" });
    expect(feedbackOf(model, 1)).toMatch(/error: TypeError: FINAL needs a JSON value nested at most \d+ levels deep/);
    expect(readFileSync(tracePath, "utf8")).toContain('"type":"session_end"');
  });
});

describe("what the model is told stays bounded and free of host paths", () => {
  const failingTool = (message: string) =>
    defineTool({ name: "test_fail", description: "Fails.", parameters: { type: "object", properties: {} }, handler: () => { throw new Error(message); } });

  test("a tool error naming a host file never reaches the model (the model hears only that the tool failed)", async () => {
    const model = new ScriptedModel([js("const r = test_fail()"), js('FINAL("done")')]);
    const hostPath = join(tmpdir(), "rlmkit-host-only", "secret", "missing.txt");
    await runSession({ question: "q", model, tools: [failingTool(`ENOENT: no such file or directory, open '${hostPath}'`)] });
    const feedback = feedbackOf(model, 1);
    expect(feedback).toContain("test_fail at line 1 (test_fail()): the tool failed in the host");
    expect(feedback).not.toContain(hostPath);
    expect(feedback).not.toContain("ENOENT");
    expect(feedback).not.toContain("rlmkit-host-only");
  });

  test.each([
    ["a thrown error's message", 'throw new Error("x".repeat(3_000_000))', []],
    ["a thrown error's name", 'const e = new Error("m"); e.name = "N".repeat(3_000_000); throw e', []],
    ["a thrown string", 'throw "s".repeat(3_000_000)', []],
    ["an unknown tool option", `const r = test_opts({ ${"k".repeat(3_000_000)}: 1 })`, []],
    ["a reserved name", `const __rlm${"z".repeat(3_000_000)} = 1`, []],
  ])("%s of millions of characters is cut in the feedback", async (_label, code, tools) => {
    const model = new ScriptedModel([js(code as string), js('FINAL("done")')]);
    const result = await runSession({ question: "q", model, tools: [infoTool, optionsTool, ...(tools as [])] });
    expect(result.status).toBe("final");
    const feedback = feedbackOf(model, 1);
    expect(feedback.length).toBeLessThan(20_000);
    expect(feedback).toContain("[cut:");
  });
});

describe("sub-calls do not outlive their session", () => {
  test.each([
    ["an llm_query", 'llm_query("late work")'],
    ["an rlm_query child session", 'rlm_query("late work")'],
  ])("%s the guest did not await is aborted when the session returns", async (_label, code) => {
    let called!: (request: ModelRequest) => void;
    const started = new Promise<ModelRequest>((resolve) => (called = resolve));
    const sub = new ScriptedModel(
      [
        (request) => {
          called(request);
          // Never answers; fails only when aborted, as a real client does.
          return new Promise<string>((_, reject) => request.signal?.addEventListener("abort", () => reject(new Error("aborted")), { once: true }));
        },
      ],
      { modelId: "sub" },
    );
    // The root answers once the sub-model is busy with the call its first block left running.
    const root = new ScriptedModel([js(code), async () => (await started, js('FINAL("quick")'))]);
    const result = await runSession({ question: "q", model: root, subModel: sub });
    expect(result).toMatchObject({ status: "final", answer: "quick" });
    expect((await started).signal?.aborted).toBe(true);
  });
});
