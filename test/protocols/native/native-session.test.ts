import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import { OpenAICompatibleModel, runSession, ScriptedModel, type ChatMessage, type ModelRequest, type SessionEvent } from "../../../src/index.ts";
import { startOpenAIServer, type ChatCompletionRequestBody, type OpenAITestServer } from "../../support/openai-server.ts";
import { TOOLS_REFUSALS } from "../../support/tools-refusals.ts";

// A nav question on a real fixture repository, answered in the `native` protocol: the model calls
// nav_search and nav_outline in parallel, reads their results from the tool messages, and answers
// in plain text built from what the tools returned.
const navRepo = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "fixtures", "nav-repo");
const question = "Where is the Go server's connection limit defined, and what is it?";

interface SearchHit {
  readonly path: string;
  readonly line: number;
  readonly text: string;
}

/** The answer a model would write from the search results it was sent back: the first hit's place and line. */
function answerFrom(toolMessages: readonly { content: string | null; tool_call_id?: string; toolCallId?: string }[]): string {
  const search = JSON.parse(toolMessages[0].content ?? "null") as { matches?: SearchHit[] } | SearchHit[];
  const hits = Array.isArray(search) ? search : (search.matches ?? []);
  const [hit] = hits;
  return hit ? `${hit.path}:${hit.line} ${hit.text.trim()}` : "not found";
}

const servers: OpenAITestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe("a native session answers a nav question on a fixture repository", () => {
  test("with ScriptedModel: parallel calls, results as tool messages, the text reply as the answer", async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ name: "nav_search", arguments: { query: "const MaxConns" } }, { name: "nav_outline", arguments: { path: "go/server.go" } }] },
      (request: ModelRequest) => answerFrom(request.messages.filter((message) => message.role === "tool")),
    ]);
    const events: SessionEvent[] = [];
    const result = await runSession({ question, model, repo: navRepo, protocol: "native", sandbox: { backend: "isolate" }, onEvent: (event) => events.push(event) });

    expect(result.status).toBe("final");
    expect(result.answer).toBe("go/server.go:6 const MaxConns = 100");
    const [first, second] = model.requests;
    expect(first.tools?.map((tool) => tool.name)).toEqual(expect.arrayContaining(["nav_search", "nav_outline", "nav_read", "nav_refs", "nav_ls", "nav_info"]));
    expect(first.tools?.find((tool) => tool.name === "nav_search")?.parameters).toMatchObject({ type: "object", properties: { query: expect.any(Object) } });
    expect(first.messages[0].content).not.toContain("```js");
    // The assistant message keeps both calls; each is answered by a tool message with its id, in order.
    const assistant = second.messages.find((message) => message.role === "assistant") as ChatMessage;
    expect(assistant.toolCalls?.map((call) => call.id)).toEqual(["call_1_0", "call_1_1"]);
    const tools = second.messages.filter((message) => message.role === "tool");
    expect(tools.map((message) => [message.toolCallId, message.name])).toEqual([
      ["call_1_0", "nav_search"],
      ["call_1_1", "nav_outline"],
    ]);
    expect(tools[1].content).toContain("MaxConns");
    // The trace keeps the calls with the reply, so a replay can hand them out again.
    const modelCalls = events.filter((event) => event.type === "model_call");
    expect(modelCalls[0]).toMatchObject({ toolCalls: [{ id: "call_1_0", name: "nav_search" }, { id: "call_1_1", name: "nav_outline" }] });
  });

  test("against the loopback server: streamed, interleaved argument deltas of parallel calls", async () => {
    const server = await startOpenAIServer((body: ChatCompletionRequestBody, { index }) => {
      if (index === 0) {
        return {
          text: "",
          interleaveToolCalls: true,
          toolCalls: [
            { id: "call_s", name: "nav_search", arguments: '{"query": "const MaxConns"}', chunks: ['{"qu', 'ery": "const Max', 'Conns"}'] },
            { id: "call_o", name: "nav_outline", arguments: '{"path": "go/server.go"}', chunks: ['{"path"', ': "go/server.go"}'] },
          ],
        };
      }
      return answerFrom((body.messages ?? []).filter((message) => message.role === "tool"));
    });
    servers.push(server);
    const model = new OpenAICompatibleModel({ baseURL: server.url, model: "tool-model", stream: true, maxRetries: 0 });
    const result = await runSession({ question, model, repo: navRepo, protocol: "native", sandbox: { backend: "isolate" } });

    expect(result.status).toBe("final");
    expect(result.answer).toBe("go/server.go:6 const MaxConns = 100");
    const [first, second] = server.requests.map((request) => request.body);
    expect(first.stream).toBe(true);
    expect(first.tools?.map((tool) => tool.type)).toEqual(first.tools?.map(() => "function"));
    expect(second.messages?.find((message) => message.role === "assistant")?.tool_calls).toEqual([
      { id: "call_s", type: "function", function: { name: "nav_search", arguments: '{"query": "const MaxConns"}' } },
      { id: "call_o", type: "function", function: { name: "nav_outline", arguments: '{"path": "go/server.go"}' } },
    ]);
    expect(second.messages?.filter((message) => message.role === "tool").map((message) => message.tool_call_id)).toEqual(["call_s", "call_o"]);
  });
});

describe("a native session whose server refuses tools", () => {
  test("degrades to the json protocol with a protocol_degraded event, and answers", async () => {
    const refusal = TOOLS_REFUSALS[0].response; // Ollama: "<model> does not support tools", 400
    const server = await startOpenAIServer((body: ChatCompletionRequestBody) => {
      if (body.tools) return refusal;
      const results = (body.messages ?? []).filter((message) => message.role === "user" && message.content?.startsWith("Tool Result (nav_search)"));
      if (results.length === 0) return 'I will search.\n{"tool": "nav_search", "arguments": {"query": "const MaxConns"}}';
      const json = results[0].content!.slice(results[0].content!.indexOf("\n") + 1);
      return answerFrom([{ content: json }]);
    });
    servers.push(server);
    const model = new OpenAICompatibleModel({ baseURL: server.url, model: "no-tools-model", maxRetries: 2 });
    const events: SessionEvent[] = [];
    const result = await runSession({ question, model, repo: navRepo, protocol: "native", sandbox: { backend: "isolate" }, onEvent: (event) => events.push(event) });

    expect(result.status).toBe("final");
    expect(result.answer).toBe("go/server.go:6 const MaxConns = 100");
    const degraded = events.filter((event) => event.type === "protocol_degraded");
    expect(degraded).toEqual([expect.objectContaining({ from: "native", to: "json", reason: expect.stringContaining("does not support tools") })]);
    const [refused, retried] = server.requests.map((request) => request.body);
    // The refusal is not retried as a server fault; the turn is sent again in json, without tools.
    expect(server.requests).toHaveLength(3);
    expect(refused.tools).toBeDefined();
    expect(retried.tools).toBeUndefined();
    expect(retried.messages?.[0].content).toContain('"tool"');
    expect(retried.messages?.[0].content).not.toBe(refused.messages?.[0].content);
  });
});

describe("a native reply whose calls a hook stops", () => {
  test.for([
    { label: "a veto", act: (context: { veto(reason: string): void; correct(message: string): void }) => context.veto("look at the README first"), why: "a hook vetoed the reply" },
    { label: "a correction", act: (context: { veto(reason: string): void; correct(message: string): void }) => context.correct("look at the README first"), why: "a hook asked for another reply" },
  ])("$label: each call is answered by a tool message saying it did not run, before the hook's message", async ({ act, why }) => {
    let stopped = false;
    const model = new ScriptedModel([{ toolCalls: [{ name: "nav_info" }, { name: "nav_ls", arguments: { path: "go" } }] }, "The limit is in go/server.go."]);
    const result = await runSession({
      question,
      model,
      repo: navRepo,
      protocol: "native",
      sandbox: { backend: "isolate" },
      hooks: [{ name: "readme-first", points: ["after_reply"], run: (context, next) => (stopped ? next() : ((stopped = true), act(context), next())) }],
    });
    expect(result.status).toBe("final");
    const history = model.requests[1].messages.slice(2);
    expect(history.map((message) => [message.role, message.toolCallId])).toEqual([
      ["assistant", undefined],
      ["tool", "call_1_0"],
      ["tool", "call_1_1"],
      ["user", undefined],
    ]);
    expect(history[1].content).toBe(`Error: not run: ${why}`);
    expect(history[3].content).toContain("look at the README first");
  });
});
