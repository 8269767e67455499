import { describe, expect, test } from "vitest";
import { defineTool, runSession, ScriptedModel, type SessionEvent } from "../../src/index.ts";
import { js } from "../support/scripted-replies.ts";

function lastMessage(model: ScriptedModel, request: number): string {
  return model.requests[request].messages.at(-1)!.content;
}

const cycle: Record<string, unknown> = { name: "loop" };
cycle.self = cycle;

describe("a tool's own failure is the host's fault, not the model's", () => {
  test.each([
    { label: "a handler that throws (a bug)", handler: () => { throw new TypeError("Cannot read properties of undefined (reading 'id')"); }, hostError: "lookup threw: TypeError: Cannot read properties of undefined (reading 'id')" },
    { label: "a handler that rejects", handler: async () => { throw new Error("database connection lost"); }, hostError: "lookup threw: Error: database connection lost" },
    { label: "a function as the result", handler: () => (() => 1) as never, hostError: "lookup returned a value that is not JSON: result is a function" },
    { label: "a function inside the result", handler: () => ({ user: { name: "Ada", greet: () => "hi" } }) as never, hostError: "lookup returned a value that is not JSON: result.user.greet is a function" },
    { label: "a bigint in an array", handler: () => [1, 2n] as never, hostError: "lookup returned a value that is not JSON: result[1] is a bigint" },
    { label: "a cycle", handler: () => cycle as never, hostError: "lookup returned a value that is not JSON: result.self refers back to an enclosing value (a cycle)" },
  ])("$label: a tool_call event with the real message for the host; a neutral 'the tool failed' for the model", async ({ handler, hostError }) => {
    const tool = defineTool({ name: "lookup", description: "Finds a user.", parameters: { type: "object", properties: { id: { type: "number" } } }, handler });
    const model = new ScriptedModel([js('print("before")\nconst user = lookup(7)'), js('FINAL("went on")')]);
    const events: SessionEvent[] = [];
    const result = await runSession({ question: "q", model, tools: [tool], onEvent: (event) => events.push(event) });

    expect(result).toMatchObject({ status: "final", answer: "went on" });
    const call = events.find((event) => event.type === "tool_call");
    expect(call).toMatchObject({ tool: "lookup", args: [7], line: 2, hostFault: true, error: hostError });
    const feedback = lastMessage(model, 1);
    expect(feedback).toContain("lookup at line 2 (lookup(7)): the tool failed in the host. This is not a problem with your code or its arguments");
    expect(feedback).not.toMatch(/check the arguments|Hint/);
    expect(feedback).not.toContain(hostError.slice("lookup ".length));
    expect(feedback).not.toContain("before");
  });

  test("a failure the tool returns as a value is the model's to read, not a host fault", async () => {
    const tool = defineTool({ name: "lookup", description: "Finds a user.", parameters: { type: "object", properties: { id: { type: "number" } } }, handler: ({ id }) => ({ error: `no user ${id}` }) });
    const model = new ScriptedModel([js("const user = lookup(7)\nprint(user.error)"), js('FINAL("ok")')]);
    const events: SessionEvent[] = [];
    await runSession({ question: "q", model, tools: [tool], onEvent: (event) => events.push(event) });
    expect(events.find((event) => event.type === "tool_call")).not.toHaveProperty("hostFault");
    expect(lastMessage(model, 1)).toContain("no user 7");
  });

  test("a result with undefined fields and toJSON values is JSON (as JSON.stringify sees it)", async () => {
    const tool = defineTool({ name: "lookup", description: "Finds a user.", parameters: { type: "object", properties: {} }, handler: () => ({ name: "Ada", nickname: undefined, seen: new Date(0) }) as never });
    const model = new ScriptedModel([js("const user = lookup()\nFINAL(user)")]);
    const result = await runSession({ question: "q", model, tools: [tool] });
    expect(result).toMatchObject({ status: "final", answer: { name: "Ada", seen: "1970-01-01T00:00:00.000Z" } });
  });
});
