import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { runSession, ScriptedModel, type ModelRequest, type SessionEvent } from "../../../src/index.ts";

// A nav question on a real fixture repository, answered in the `json` and `tagged` protocols:
// the model searches, reads the result from the `Tool Result (nav_search):` message, and
// answers in plain text built from what the tool returned.
const navRepo = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "fixtures", "nav-repo");
const question = "Where is the Go server's connection limit defined, and what is it?";

/** The answer a model would write from the search result it was sent: the first hit's place and line. */
function answerFrom(request: ModelRequest): string {
  const feedback = request.messages.at(-1)!.content;
  const result = /^Tool Result \(nav_search\):\n(.*)$/m.exec(feedback);
  const hits = result ? (JSON.parse(result[1]!) as { matches: { path: string; line: number; text: string }[] }).matches : [];
  return hits[0] ? `It is ${hits[0].path}:${hits[0].line}: ${hits[0].text.trim()}` : "not found";
}

describe.each([
  { protocol: "json" as const, call: 'I will search for it.\n```json\n{"tool": "nav_search", "arguments": {"query": "const MaxConns"}}\n```', stop: ["Tool Result ("] },
  { protocol: "tagged" as const, call: 'I will search for it.\n<nav_search>\n{"query": "const MaxConns"}\n</nav_search>', stop: expect.arrayContaining(["</nav_search>", "</nav_read>", "Tool Result ("]) },
])("a $protocol session answers a nav question on a fixture repository", ({ protocol, call, stop }) => {
  test("a call, its result as a Tool Result message, the text reply as the answer", async () => {
    const model = new ScriptedModel([call, answerFrom]);
    const events: SessionEvent[] = [];
    const result = await runSession({ question, model, repo: navRepo, protocol, sandbox: { backend: "isolate" }, onEvent: (event) => events.push(event) });

    expect(result).toMatchObject({ status: "final", answer: "It is go/server.go:6: const MaxConns = 100", iterations: 2 });
    const [first, second] = model.requests;
    expect(first!.stop).toEqual(stop);
    expect(first!.tools).toBeUndefined();
    const system = first!.messages[0]!.content;
    for (const name of ["nav_info", "nav_ls", "nav_outline", "nav_read", "nav_search", "nav_refs"]) expect(system).toContain(name);
    expect(system).not.toContain("FINAL");
    expect(second!.messages.at(-2)).toEqual({ role: "assistant", content: call });
    expect(second!.messages.at(-1)!.content).toMatch(/^Tool Result \(nav_search\):\n\{"matches":\[\{"path":"go\/server\.go","line":6,/);
    expect(events.filter((event) => event.type === "tool_call")).toMatchObject([{ tool: "nav_search", args: [{ query: "const MaxConns" }] }]);
  });

  test("arguments the schema refuses do not run; the error comes back as the call's result", async () => {
    const bad = call.replace('"const MaxConns"', "7");
    const model = new ScriptedModel([bad, "I give up."]);
    const result = await runSession({ question, model, repo: navRepo, protocol, sandbox: { backend: "isolate" } });
    expect(result).toMatchObject({ status: "final", answer: "I give up." });
    expect(model.requests[1]!.messages.at(-1)!.content).toMatch(/^Tool Result \(nav_search\):\nError: nav_search: query must be string\. Expected nav_search\(query: string/);
  });
});
