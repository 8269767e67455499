/**
 * The turn engine runs `tool_call` and `invalid_tool_call` actions end to end for a
 * protocol other than `code`: validation, the tool, its result rendered back, and
 * failures as data. The protocol is the test's own (`CALL name {json}` lines).
 */
import { describe, expect, test } from "vitest";
import { defineTool, isolateSandboxFactory, runSession, ScriptedModel, type SandboxFactory, type SessionEvent } from "../../src/index.ts";
import { callLineProtocol } from "../support/call-line-protocol.ts";
import { feedbackOf } from "../support/scripted-replies.ts";

function tools() {
  const calls: unknown[] = [];
  const lookup = defineTool({
    name: "lookup",
    description: "Looks a key up in the table.",
    parameters: { type: "object", properties: { key: { type: "string" } }, required: ["key"], additionalProperties: false },
    handler: ({ key }) => {
      calls.push(key);
      if (key === "crash") throw new Error("database connection refused at 10.0.0.7");
      return { key, value: key.length * 10 };
    },
  });
  const finalAnswer = defineTool({
    name: "final_answer",
    description: "Gives the answer.",
    parameters: { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] },
    handler: () => {
      calls.push("final_answer handler");
      return null;
    },
  });
  return { calls, lookup, finalAnswer };
}

/** A factory that counts the sandboxes it opens. */
function countingFactory(): SandboxFactory & { opened: number } {
  const factory = { backend: "isolate" as const, opened: 0, create: (options: Parameters<SandboxFactory["create"]>[0]) => (factory.opened++, isolateSandboxFactory.create(options)) };
  return factory;
}

describe("tool-call actions", () => {
  test("a session answers from a tool result, without opening a sandbox", async () => {
    const { calls, lookup } = tools();
    const model = new ScriptedModel(['Let me look.\nCALL lookup {"key": "alpha"}', (request) => `The value is ${/"value":(\d+)/.exec(request.messages.at(-1)!.content)?.[1]}.`]);
    const events: SessionEvent[] = [];
    const factory = countingFactory();
    const result = await runSession({ question: "What is the value of alpha?", model, tools: [lookup], protocol: callLineProtocol(), subcalls: false, sandboxFactory: factory, onEvent: (event) => events.push(event) });
    expect(result).toMatchObject({ status: "final", answer: "The value is 50.", iterations: 2 });
    expect(calls).toEqual(["alpha"]);
    expect(feedbackOf(model, 1)).toBe('Tool Result (lookup): {"key":"alpha","value":50}');
    expect(model.requests[0]!.messages[0]!.content).toContain("- lookup: Looks a key up in the table.");
    const call = events.find((event) => event.type === "tool_call");
    expect(call).toMatchObject({ type: "tool_call", iteration: 1, index: 0, tool: "lookup", args: [{ key: "alpha" }], line: 0, callId: "call_0", resultChars: JSON.stringify({ key: "alpha", value: 50 }).length, result: { key: "alpha", value: 50 } });
    expect(events.map((event) => event.type)).toEqual(["session_start", "model_call", "tool_call", "feedback", "model_call", "final", "session_end"]);
    expect(factory.opened).toBe(0);
  });

  test.each([
    { label: "arguments the schema refuses", reply: 'CALL lookup {"key": 7}', feedback: /^Tool Error \(lookup\): lookup: key must be string\. Expected lookup\(key: string\)\.$/, ran: [] },
    { label: "an argument the schema does not have", reply: 'CALL lookup {"key": "a", "limit": 3}', feedback: /unknown argument 'limit'/, ran: [] },
    { label: "arguments that are not JSON (an invalid_tool_call)", reply: "CALL lookup {key: 'alpha',}", feedback: /^Tool Error \(lookup\): the arguments of lookup are not JSON/, ran: [] },
    { label: "a tool that throws (a host fault: the model is not told the real message)", reply: 'CALL lookup {"key": "crash"}', feedback: /^Tool Error \(lookup\): lookup failed in the host\. This is not a problem with your call/, ran: ["crash"] },
  ])("$label: the call fails as data and the session goes on", async ({ reply, feedback, ran }) => {
    const { calls, lookup } = tools();
    const model = new ScriptedModel([reply, "Done."]);
    const events: SessionEvent[] = [];
    const result = await runSession({ question: "q", model, tools: [lookup], protocol: callLineProtocol(), subcalls: false, onEvent: (event) => events.push(event) });
    expect(result).toMatchObject({ status: "final", answer: "Done." });
    expect(feedbackOf(model, 1)).toMatch(feedback);
    expect(feedbackOf(model, 1)).not.toContain("10.0.0.7");
    expect(calls).toEqual(ran);
    const call = events.find((event) => event.type === "tool_call");
    expect(call && "error" in call && call.error).toBeTruthy();
  });

  test("a host fault's real message goes to the trace only, marked hostFault", async () => {
    const { lookup } = tools();
    const events: SessionEvent[] = [];
    await runSession({ question: "q", model: new ScriptedModel(['CALL lookup {"key": "crash"}', "Done."]), tools: [lookup], protocol: callLineProtocol(), subcalls: false, onEvent: (event) => events.push(event) });
    expect(events.find((event) => event.type === "tool_call")).toMatchObject({ hostFault: true, error: "lookup threw: Error: database connection refused at 10.0.0.7" });
  });

  describe("finalAnswerTool", () => {
    test("a call of it ends the session with its one argument as the answer; its handler does not run", async () => {
      const { calls, lookup, finalAnswer } = tools();
      const model = new ScriptedModel(['CALL lookup {"key": "abc"}', 'CALL final_answer {"answer": "thirty"}']);
      const result = await runSession({ question: "q", model, tools: [lookup, finalAnswer], finalAnswerTool: "final_answer", protocol: callLineProtocol(), subcalls: false });
      expect(result).toMatchObject({ status: "final", answer: "thirty", iterations: 2 });
      expect(calls).toEqual(["abc"]);
    });

    test("with it, prose is nudged, not an answer; its invalid call is an error for the model", async () => {
      const { finalAnswer } = tools();
      const model = new ScriptedModel(["It is thirty.", 'CALL final_answer {"answer": 30}', 'CALL final_answer {"answer": "30"}']);
      const result = await runSession({ question: "q", model, tools: [finalAnswer], finalAnswerTool: "final_answer", protocol: callLineProtocol(), subcalls: false });
      expect(result).toMatchObject({ status: "final", answer: "30", iterations: 3 });
      expect(feedbackOf(model, 1)).toBe("Call a tool; answer with CALL final_answer {...}.");
      expect(feedbackOf(model, 2)).toMatch(/^Tool Error \(final_answer\): final_answer: answer must be string/);
    });

    test("a finalAnswerTool the session does not have is refused before anything starts", async () => {
      const model = new ScriptedModel(["x"]);
      await expect(runSession({ question: "q", model, finalAnswerTool: "final_answer", protocol: callLineProtocol(), subcalls: false })).rejects.toMatchObject({ name: "InvalidOptionsError", option: "finalAnswerTool" });
      expect(model.requests).toHaveLength(0);
    });
  });
});
