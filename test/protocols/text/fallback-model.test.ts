import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { runSession, ScriptedModel, type ModelRequest, type SessionEvent } from "../../../src/index.ts";

// A call that cannot run goes once to the fallback model, which rewrites it; the rewrite runs in its
// place. When the fallback fails too, the model gets the error back as the call's result.
const navRepo = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "fixtures", "nav-repo");
const question = "Where is the Go server's connection limit defined?";
const fixed = 'Rewritten:\n```json\n{"tool": "nav_search", "arguments": {"query": "const MaxConns"}}\n```';

/** The main model's second reply: the first hit of the search, or the error it got back. */
function answerFrom(request: ModelRequest): string {
  const feedback = request.messages.at(-1)!.content;
  const result = /^Tool Result \(nav_search\):\n(.*)$/m.exec(feedback)?.[1] ?? "";
  if (result.startsWith("Error: ")) return result;
  const hit = (JSON.parse(result) as { matches: { path: string; line: number }[] }).matches[0];
  return `${hit?.path}:${hit?.line}`;
}

describe("fallbackModel: a call that cannot run is rewritten once by another model", () => {
  test.for([
    { protocol: "json" as const, label: "JSON that does not parse", call: '{"tool": "nav_search", "arguments": {"query"= "const MaxConns"}}', error: "nav_search: not valid JSON" },
    { protocol: "tagged" as const, label: "arguments the schema refuses", call: '<nav_search>{"q": "const MaxConns"}</nav_search>', error: "nav_search: missing required argument 'query'" },
    { protocol: "json" as const, label: "an unknown tool", call: '{"tool": "grep", "arguments": {"pattern": "const MaxConns"}}', error: "unknown tool 'grep'" },
  ])("$protocol, $label: the rewrite runs and the session answers from its result", async ({ protocol, call, error }) => {
    const model = new ScriptedModel([`Searching.\n${call}`, answerFrom]);
    const fallback = new ScriptedModel([fixed]);
    const events: SessionEvent[] = [];
    const result = await runSession({ question, model, fallbackModel: fallback, repo: navRepo, protocol, sandbox: { backend: "isolate" }, onEvent: (event) => events.push(event) });

    expect(result).toMatchObject({ status: "final", answer: "go/server.go:6" });
    expect(fallback.requests).toHaveLength(1);
    const prompt = fallback.requests[0]!.messages[0]!.content;
    expect(prompt).toContain(call);
    expect(prompt).toContain(error);
    expect(events.filter((event) => event.type === "tool_call")).toMatchObject([{ tool: "nav_search", args: [{ query: "const MaxConns" }], rewrittenFrom: call }]);
    // The rewrite's tokens count in the session's usage, under the fallback model's name.
    expect(Object.keys(result.usage.byModel ?? {})).toEqual(expect.arrayContaining([fallback.modelId]));
  });

  test.for([
    { label: "answers without a call", fallback: () => "I cannot tell what was meant.", reason: "the rewrite held no valid call" },
    { label: "rewrites it wrongly again", fallback: () => '{"tool": "nav_search", "arguments": {"query": 7}}', reason: "the rewrite is still invalid: nav_search: query must be string" },
    {
      label: "fails",
      fallback: () => {
        throw new Error("503 from the fallback server");
      },
      reason: "the rewrite failed: 503 from the fallback server",
    },
  ])("when the fallback model $label, the error goes back to the model as the call's result", async ({ fallback: reply, reason }) => {
    const model = new ScriptedModel(['<nav_search>{"query": 7}</nav_search>', answerFrom]);
    const fallback = new ScriptedModel([reply]);
    const result = await runSession({ question, model, fallbackModel: fallback, repo: navRepo, protocol: "tagged", sandbox: { backend: "isolate" } });
    expect(fallback.requests).toHaveLength(1);
    expect(result.status).toBe("final");
    expect(result.answer).toMatch(/^Error: nav_search: query must be string\. Expected nav_search\(.*\)\. \(the fallback model's rewrite failed too: (.*)\)$/);
    expect(String(result.answer)).toContain(`(the fallback model's rewrite failed too: ${reason}`);
  });

  test("a valid call never reaches the fallback model", async () => {
    const fallback = new ScriptedModel([]);
    const model = new ScriptedModel(['{"tool": "nav_search", "arguments": {"query": "const MaxConns"}}', answerFrom]);
    const result = await runSession({ question, model, fallbackModel: fallback, repo: navRepo, protocol: "json", sandbox: { backend: "isolate" } });
    expect(result).toMatchObject({ status: "final", answer: "go/server.go:6" });
    expect(fallback.requests).toHaveLength(0);
  });

  test("a fallbackModel that is not a ModelClient is refused before the session starts", async () => {
    await expect(runSession({ question, model: new ScriptedModel([]), fallbackModel: {} as never, protocol: "json" })).rejects.toMatchObject({ name: "InvalidOptionsError", option: "fallbackModel" });
  });
});
