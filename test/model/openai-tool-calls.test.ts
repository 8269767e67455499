import { afterEach, describe, expect, test } from "vitest";
import {
  ModelCallError,
  OpenAICompatibleModel,
  ToolsUnsupportedError,
  type ChatMessage,
  type ModelRequest,
  type ModelStreamPart,
  type OpenAICompatibleModelOptions,
  type ToolSpec,
} from "../../src/index.ts";
import { startOpenAIServer, type ChatCompletionHandler, type HandlerResult, type OpenAITestServer } from "../support/openai-server.ts";
import { TOOLS_REFUSALS } from "../support/tools-refusals.ts";

const tools: ToolSpec[] = [
  { name: "nav_search", description: "Searches the repository.", parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] } },
  { name: "nav_read", description: "Reads a symbol or file.", parameters: { type: "object", properties: { target: { type: "string" } }, required: ["target"] } },
];
const question: ChatMessage[] = [{ role: "user", content: "Where is retry decided?" }];

const servers: OpenAITestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handler: ChatCompletionHandler | readonly HandlerResult[]): Promise<OpenAITestServer> {
  const server = await startOpenAIServer(handler);
  servers.push(server);
  return server;
}

function modelFor(server: OpenAITestServer, options: OpenAICompatibleModelOptions = {}): OpenAICompatibleModel {
  return new OpenAICompatibleModel({ baseURL: server.url, model: "tool-model", _internal: { sleep: async () => {}, random: () => 0.5 }, ...options });
}

async function parts(model: OpenAICompatibleModel, request: ModelRequest): Promise<ModelStreamPart[]> {
  const collected: ModelStreamPart[] = [];
  for await (const part of model.stream(request)) collected.push(part);
  return collected;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("the call should have failed"),
    (error: unknown) => error,
  );
}

describe("OpenAICompatibleModel, what a request with tools sends", () => {
  test("tools as function tools, tool_choice, stop, and a history with tool calls and tool results", async () => {
    const server = await serve(["ok", "ok", "ok"]);
    const model = modelFor(server);
    const history: ChatMessage[] = [
      ...question,
      { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "nav_search", arguments: '{"query":"retry"}' }] },
      { role: "tool", toolCallId: "call_1", name: "nav_search", content: '{"matches":[]}' },
      { role: "assistant", content: "Reading it.", toolCalls: [{ id: "call_2", name: "nav_read", arguments: '{"target":"Retry"}' }] },
      { role: "tool", toolCallId: "call_2", content: "class Retry {}" },
    ];
    await model.complete({ messages: history, tools, toolChoice: "required", stop: ["</nav_search>"] });
    await model.complete({ messages: question, tools, toolChoice: { name: "nav_read" } });
    await model.complete({ messages: question, toolChoice: "required" });

    const [first, named, withoutTools] = server.requests.map((request) => request.body);
    expect(first.tools).toEqual(tools.map(({ name, description, parameters }) => ({ type: "function", function: { name, description, parameters } })));
    expect(first.tool_choice).toBe("required");
    expect(first.stop).toEqual(["</nav_search>"]);
    expect(first.messages).toEqual([
      { role: "user", content: "Where is retry decided?" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "nav_search", arguments: '{"query":"retry"}' } }] },
      { role: "tool", tool_call_id: "call_1", name: "nav_search", content: '{"matches":[]}' },
      { role: "assistant", content: "Reading it.", tool_calls: [{ id: "call_2", type: "function", function: { name: "nav_read", arguments: '{"target":"Retry"}' } }] },
      { role: "tool", tool_call_id: "call_2", content: "class Retry {}" },
    ]);
    expect(named.tool_choice).toEqual({ type: "function", function: { name: "nav_read" } });
    // No tools, no tool_choice: a server may refuse a tool_choice without tools.
    expect(withoutTools).not.toHaveProperty("tools");
    expect(withoutTools).not.toHaveProperty("tool_choice");
    expect(withoutTools).not.toHaveProperty("stop");
  });
});

describe.for([
  { mode: "plain", stream: false },
  { mode: "streamed", stream: true },
])("OpenAICompatibleModel tool calls, $mode", ({ stream }) => {
  test("Gemini's thought_signature on each call is kept and sent back on the same call", async () => {
    // Gemini's OpenAI-compatible endpoint puts the signature beside `function` and refuses the next turn without it.
    const signature = (n: number) => ({ extra_content: { google: { thought_signature: `CiQB0e2Kb${n}+signature==` } } });
    const server = await serve([
      { text: "", toolCalls: [{ id: "function-call-1", name: "nav_search", arguments: '{"query":"retry"}', extra: signature(1) }, { id: "function-call-2", name: "nav_read", arguments: '{"target":"Retry"}', extra: signature(2) }] },
      "Retry is decided in src/retry.ts.",
    ]);
    const model = modelFor(server, { stream });
    const first = await model.complete({ messages: question, tools });
    expect(first.toolCalls).toEqual([
      { id: "function-call-1", name: "nav_search", arguments: '{"query":"retry"}', extra: signature(1) },
      { id: "function-call-2", name: "nav_read", arguments: '{"target":"Retry"}', extra: signature(2) },
    ]);
    await model.complete({
      messages: [
        ...question,
        { role: "assistant", content: first.text, toolCalls: first.toolCalls },
        ...first.toolCalls!.map((call): ChatMessage => ({ role: "tool", toolCallId: call.id, name: call.name, content: "{}" })),
      ],
      tools,
    });
    const sent = server.requests[1].body.messages![1].tool_calls!;
    expect(sent).toEqual([
      { id: "function-call-1", type: "function", function: { name: "nav_search", arguments: '{"query":"retry"}' }, ...signature(1) },
      { id: "function-call-2", type: "function", function: { name: "nav_read", arguments: '{"target":"Retry"}' }, ...signature(2) },
    ]);
  });

  test("reasoning in `reasoning` (Ollama) next to a tool call", async () => {
    const server = await serve([{ text: "", reasoning: "I should search first.", reasoningField: "reasoning", toolCalls: [{ id: "call_r", name: "nav_search", arguments: '{"query":"retry"}' }] }]);
    const response = await modelFor(server, { stream }).complete({ messages: question, tools });
    expect(response).toMatchObject({ text: "", reasoning: "I should search first.", finishReason: "tool-calls", rawFinishReason: "tool_calls" });
    expect(response.toolCalls).toEqual([{ id: "call_r", name: "nav_search", arguments: '{"query":"retry"}' }]);
  });

  test("tool JSON written in the content (an Ollama/Qwen template without tool parsing) stays text for the protocol to read", async () => {
    const content = '<tool_call>\n{"name": "nav_search", "arguments": {"query": "retry"}}\n</tool_call>';
    const server = await serve([{ text: content }]);
    const response = await modelFor(server, { stream }).complete({ messages: question, tools });
    expect(response.text).toBe(content);
    expect(response.toolCalls).toBeUndefined();
    expect(response.finishReason).toBe("stop");
  });

  test.for(TOOLS_REFUSALS)("a refusal of tools is a ToolsUnsupportedError, not retried: $label", async ({ response }) => {
    const server = await serve([response, "not reached"]);
    const model = modelFor(server, { stream, maxRetries: 3 });
    const error = await rejection(model.complete({ messages: question, tools }));
    expect(error).toBeInstanceOf(ToolsUnsupportedError);
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ name: "ToolsUnsupportedError", status: response.status, retryable: false, attempts: 1 });
    expect((error as Error).message).toMatch(/does not take tools for model 'tool-model'/);
    expect((error as Error).message).toMatch(/--protocol json/);
    expect(server.requests).toHaveLength(1);
  });
});

describe("OpenAICompatibleModel, refusals that are not about tools", () => {
  test("the same 500 without tools in the request is an ordinary, retried server error", async () => {
    const jinja = TOOLS_REFUSALS.find((refusal) => refusal.response.status === 500)!.response;
    const server = await serve([jinja, "recovered"]);
    const response = await modelFor(server).complete({ messages: question });
    expect(response.text).toBe("recovered");
    expect(server.requests).toHaveLength(2);
  });

  test("a 400 about something else, with tools sent, stays a ModelCallError", async () => {
    const server = await serve([{ status: 400, body: { error: { message: "This model's maximum context length is 8192 tokens.", type: "invalid_request_error" } } }]);
    const error = await rejection(modelFor(server).complete({ messages: question, tools }));
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).not.toBeInstanceOf(ToolsUnsupportedError);
    expect(error).toMatchObject({ name: "ModelCallError", status: 400 });
  });
});

describe("OpenAICompatibleModel.stream with tool calls", () => {
  const parallel = [
    { id: "call_a", name: "nav_search", arguments: '{"query":"retry \\"policy\\""}', chunks: ['{"que', 'ry":"retry \\', '"policy\\""}'] },
    { id: "call_b", name: "nav_read", arguments: '{"target":"Retry.next"}', chunks: ['{"tar', 'get":"Retry.next"}'] },
  ];

  test.for([
    { label: "one call after the other", options: {} },
    { label: "deltas of parallel calls interleaved", options: { interleaveToolCalls: true } },
    { label: "every call at index 0, told apart by id", options: { everyCallAtIndexZero: true } },
  ])("assembles parallel calls by index: $label", async ({ options }) => {
    const server = await serve([{ text: "Two lookups.", toolCalls: parallel, ...options }]);
    const streamed = await parts(modelFor(server), { messages: question, tools });
    const finish = streamed.at(-1);
    if (finish?.type !== "finish") throw new Error("no finish part last");
    expect(finish.response.toolCalls).toEqual(parallel.map(({ id, name, arguments: text }) => ({ id, name, arguments: text })));
    expect(finish.response.finishReason).toBe("tool-calls");
    const deltas = streamed.filter((part) => part.type === "tool-call-delta");
    expect(deltas.filter((part) => part.id !== undefined).map((part) => [part.index, part.id, part.name])).toEqual([
      [0, "call_a", "nav_search"],
      [1, "call_b", "nav_read"],
    ]);
    expect(streamed[0]).toEqual({ type: "text-delta", text: "Two " });
  });

  test("a stream cut inside a tool call rejects once parts were yielded, and is not retried", async () => {
    // Role chunk, "Two ", "lookups.", then the first call's opening delta and one argument delta: cut inside its arguments.
    const server = await serve([{ text: "Two lookups.", toolCalls: parallel, cutAfterChunks: 4 }, "not reached"]);
    const seen: ModelStreamPart[] = [];
    const error = await rejection(
      (async () => {
        for await (const part of modelFor(server).stream({ messages: question, tools })) seen.push(part);
      })(),
    );
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({ failure: "connection", attempts: 1 });
    expect(seen.some((part) => part.type === "tool-call-delta")).toBe(true);
    expect(seen.some((part) => part.type === "finish")).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  test("complete() on a stream cut inside a tool call retries and returns only the whole reply", async () => {
    const server = await serve([{ text: "", toolCalls: parallel, cutAfterChunks: 2 }, { text: "", toolCalls: parallel }]);
    const response = await modelFor(server, { stream: true }).complete({ messages: question, tools });
    expect(response.toolCalls?.map((call) => call.arguments)).toEqual(parallel.map((call) => call.arguments));
    expect(server.requests).toHaveLength(2);
  });

  test("a failure before the first part is retried", async () => {
    const server = await serve([{ status: 503 }, { text: "", toolCalls: [parallel[0]] }]);
    const streamed = await parts(modelFor(server), { messages: question, tools });
    expect(streamed.at(-1)).toMatchObject({ type: "finish", response: { toolCalls: [{ id: "call_a" }] } });
    expect(server.requests).toHaveLength(2);
  });

  test("a refusal of tools rejects the stream with ToolsUnsupportedError", async () => {
    const server = await serve([TOOLS_REFUSALS[0].response]);
    await expect(parts(modelFor(server), { messages: question, tools })).rejects.toBeInstanceOf(ToolsUnsupportedError);
  });
});
