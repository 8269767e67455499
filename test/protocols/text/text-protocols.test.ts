import { describe, expect, test } from "vitest";
import { createJsonProtocol, createTaggedProtocol, defineTool, parseToolCalls, validateToolArguments, type ActionOutcome, type ModelResponse, type PromptSetup, type ReadReplyInput, type ToolCallEvent } from "../../../src/index.ts";

const search = defineTool({
  name: "nav_search",
  description: "Searches the repository's lines.",
  parameters: {
    type: "object",
    properties: {
      query: { type: "string", description: "what to look for" },
      options: { type: "object", properties: { glob: { type: "string" }, limit: { type: "integer", default: 50 } }, additionalProperties: false },
    },
    required: ["query"],
    additionalProperties: false,
  },
  example: 'const hits = nav_search("retry", { glob: "src/**" })',
  handler: () => [],
});
const info = defineTool({ name: "nav_info", description: "Describes the repository.", parameters: { type: "object", properties: {}, additionalProperties: false }, handler: () => ({}) });
const lookup = defineTool({
  name: "lookup_user",
  description: "Finds a user.",
  parameters: { type: "object", properties: { id: { type: "integer" }, fields: { type: "array", items: { enum: ["name", "email"] } } }, required: ["id", "fields"] },
  handler: () => null,
});
const setup: PromptSetup = {
  tools: [search, info, lookup],
  navToolNames: new Set(["nav_search", "nav_info"]),
  contextDescription: "There is no `context`: the question is about the repository.",
  hasContext: false,
  hasRepo: true,
  sections: "",
  maxOutputChars: 20_000,
};
const TOOL_NAMES = new Set(setup.tools.map((tool) => tool.name));
const PROTOCOLS = [
  { name: "json", protocol: createJsonProtocol() },
  { name: "tagged", protocol: createTaggedProtocol() },
] as const;

function response(fields: Partial<ModelResponse>): ModelResponse {
  return { text: "", usage: { promptTokens: 1, completionTokens: 1 }, finishReason: "stop", model: "m", ...fields };
}

describe.each(PROTOCOLS)("$name protocol: the system prompt", ({ name, protocol }) => {
  const prompt = protocol.systemPrompt(setup);

  test("describes every tool from its schema: name, description, each parameter required or optional", () => {
    for (const tool of setup.tools) {
      expect(prompt).toContain(name === "tagged" ? `## ${tool.name}` : `### ${tool.name}`);
      expect(prompt).toContain(tool.description);
    }
    expect(prompt).toContain("- `query` (string, required): what to look for");
    expect(prompt).toContain("- `options` ({glob?: string, limit?: number}, optional)");
    expect(prompt).toContain('{"type":"object","properties":{"glob":{"type":"string"},"limit":{"type":"integer","default":50}},"additionalProperties":false}');
    expect(prompt).toContain("- none: send an empty object `{}`");
    expect(prompt).toContain("Tool Result (name):");
    expect(prompt).toContain("You are answering questions about a code repository");
    expect(prompt).not.toMatch(/\{\{\w+\}\}/);
  });

  test("every example call in it is read back as a valid call of its tool (the tool's own example, or one made from the schema)", () => {
    const calls = parseToolCalls(prompt, { protocol: name, tools: setup.tools }).filter((event): event is Extract<ToolCallEvent, { type: "tool_call" }> => event.type === "tool_call");
    // The frame's example, then one per tool.
    expect(calls.map((call) => call.name)).toEqual(["nav_search", "nav_search", "nav_info", "lookup_user"]);
    expect(calls[0]!.arguments).toEqual({ query: "retry", options: { glob: "src/**" } });
    expect(calls[3]!.arguments).toEqual({ id: 1, fields: ["name"] });
    for (const call of calls) expect(validateToolArguments(setup.tools.find((tool) => tool.name === call.name)!, call.arguments)).toMatchObject({ ok: true });
  });

  test("says how to answer: a reply without a call, or the final-answer tool", () => {
    expect(prompt).toContain("a reply without a tool call is your final answer");
    expect(protocol.systemPrompt({ ...setup, finalAnswerTool: "lookup_user" })).toContain("call `lookup_user` with it");
  });
});

describe("request fields: the stop sequences", () => {
  test("json stops at a result the model starts to write itself", () => {
    expect(createJsonProtocol().requestFields!(setup)).toEqual({ stop: ["Tool Result ("] });
  });
  test("tagged stops at each closing tag too, unless told not to (and the prompt says how many calls a reply may hold)", () => {
    expect(createTaggedProtocol().requestFields!(setup)).toEqual({ stop: ["</nav_search>", "</nav_info>", "</lookup_user>", "Tool Result ("] });
    expect(createTaggedProtocol({ stopAtClosingTag: false }).requestFields!(setup)).toEqual({ stop: ["Tool Result ("] });
    expect(createTaggedProtocol().systemPrompt(setup)).toContain("Write one call per reply");
    expect(createTaggedProtocol({ stopAtClosingTag: false }).systemPrompt(setup)).toContain("You may write several calls in one reply");
  });
});

const JSON_CALL = '{"tool": "nav_search", "arguments": {"query": "retry"}}';
const TAG_CALL = '<nav_search>{"query": "retry"}</nav_search>';

describe.each([
  { name: "json", protocol: createJsonProtocol(), call: JSON_CALL, info: '{"tool": "nav_info", "arguments": {}}', broken: '{"tool": "nav_search", "arguments": {"query"= "x"}}', unknown: '{"tool": "nav_grep", "arguments": {"q": 1}}' },
  { name: "tagged", protocol: createTaggedProtocol(), call: TAG_CALL, info: "<nav_info>{}</nav_info>", broken: '<nav_search>{"query"= "x"}</nav_search>', unknown: '<nav_grep>{"q": 1}</nav_grep>' },
])("$name protocol: reading a reply", ({ name, protocol, call, info, broken, unknown }) => {
  const read = (fields: Partial<ModelResponse>, input: Partial<ReadReplyInput> = {}) =>
    protocol.readReply({ response: response(fields), keepReasoning: false, maxTokens: 4096, toolNames: TOOL_NAMES, ...input });

  test("several calls become actions in order; the words are the text around them", () => {
    const reply = read({ text: `First I search.\n${call}\nThen the overview:\n${info}` });
    expect(reply.actions).toEqual([
      { kind: "tool_call", index: 0, id: "call_1", name: "nav_search", arguments: { query: "retry" }, raw: call },
      { kind: "tool_call", index: 1, id: "call_2", name: "nav_info", arguments: {}, raw: info },
    ]);
    expect(reply.words).toBe("First I search.\n\nThen the overview:");
    expect(reply.notes).toEqual([]);
    expect(reply.history).toEqual({ role: "assistant", content: `First I search.\n${call}\nThen the overview:\n${info}` });
    expect(reply.withoutActions).toBeUndefined();
  });

  test("a call in a fence leaves no empty fence in the words", () => {
    const fenced = name === "json" ? "```json\n" + call + "\n```" : "```\n" + call + "\n```";
    expect(read({ text: `Searching:\n${fenced}` }).words).toBe("Searching:");
  });

  test("broken JSON and an unknown tool are invalid calls, in their places", () => {
    const reply = read({ text: `${broken}\n${unknown}\n${info}` });
    expect(reply.actions.map((action) => action.kind)).toEqual(name === "json" ? ["invalid_tool_call", "invalid_tool_call", "tool_call"] : ["invalid_tool_call", "tool_call"]);
    expect(reply.actions[0]).toMatchObject({ kind: "invalid_tool_call", name: "nav_search", raw: broken, error: expect.stringContaining("not valid JSON") });
  });

  test("calls written while thinking never run, in <think> tags or the server's reasoning field", () => {
    const reply = read({ text: `<think>maybe ${info}</think>It is in lib/util.js.`, reasoning: `or ${call}` });
    expect(reply.actions).toEqual([]);
    expect(reply.reasoning).toBe(`or ${call}\n\nmaybe ${info}`);
    expect(reply.withoutActions).toEqual({ answer: "It is in lib/util.js." });
    expect(reply.history.content).toBe("It is in lib/util.js.");
  });

  test("a reply with no call is the answer; with a final-answer tool it is told to call it", () => {
    expect(read({ text: "  The retry loop is Backoff.next.\n" }).withoutActions).toEqual({ answer: "The retry loop is Backoff.next." });
    const told = read({ text: "The retry loop is Backoff.next." }, { finalAnswerTool: "lookup_user" }).withoutActions;
    expect(told).toMatchObject({ why: "text only", text: expect.stringContaining("call `lookup_user` with it") });
  });

  test.for([
    { label: "an empty reply", fields: { text: "" }, why: "empty reply" },
    { label: "only reasoning", fields: { text: "<think>hmm</think>" }, why: "reasoning only" },
    { label: "a reply cut at the token limit", fields: { text: "The loop is in", finishReason: "length" as const }, why: "cut reply" },
  ])("$label is not an answer: the model is told what to do", ({ fields, why }) => {
    const reply = read(fields);
    expect(reply.actions).toEqual([]);
    expect(reply.withoutActions).toMatchObject({ why, text: expect.stringContaining("Nothing ran: your reply") });
  });

  test("a faked Tool Result: nothing from there on is a call, the words, or the history; the model is told", () => {
    const text = `${info}\nTool Result (nav_info): {"files": 3}\nSo there are 3 files.\n${call}`;
    const reply = read({ text });
    expect(reply.actions).toEqual([{ kind: "tool_call", index: 0, id: "call_1", name: "nav_info", arguments: {}, raw: info }]);
    expect(reply.words).toBe("");
    expect(reply.history.content).toBe(info);
    expect(reply.notes).toEqual(['Your reply held a tool result you wrote yourself ("Tool Result (nav_info): {"files": 3}…"). Results come only from the tools, in the message after your calls; nothing from there on in your reply was used.']);
  });

  test("a faked Tool Result without a call is not an answer", () => {
    const reply = read({ text: 'Tool Result (nav_search): []\nSo nothing matches "retry".' });
    expect(reply.withoutActions).toMatchObject({ why: "faked tool result", text: expect.stringContaining("a tool result you wrote yourself") });
  });

  test("text after the last call is not used, and the model is told so", () => {
    const reply = read({ text: `${call}\nThe answer is surely Backoff.` });
    expect(reply.actions).toHaveLength(1);
    expect(reply.notes).toEqual(["What you wrote after your last call was not used: you had not seen its result yet. Read the results above, then go on."]);
  });

  test("a cut reply runs its whole calls and is told where it was cut", () => {
    const reply = read({ text: `${info}\n${name === "json" ? '{"tool": "nav_search", "arguments": {"query": "ret' : '<nav_search>{"query": "ret'}`, finishReason: "length" });
    expect(reply.actions.map((action) => action.kind)).toEqual(["tool_call", "invalid_tool_call"]);
    expect(reply.notes.at(-1)).toMatch(/reached the 4096-token limit and was cut/);
  });
});

test("tagged: a call whose closing tag a stop sequence took runs, and the history shows it closed", () => {
  const reply = createTaggedProtocol().readReply({ response: response({ text: 'Searching.\n<nav_search>{"query": "retry"}' }), keepReasoning: false, maxTokens: 4096, toolNames: TOOL_NAMES });
  expect(reply.actions).toEqual([{ kind: "tool_call", index: 0, id: "call_1", name: "nav_search", arguments: { query: "retry" }, raw: '<nav_search>{"query": "retry"}' }]);
  expect(reply.history.content).toBe('Searching.\n<nav_search>{"query": "retry"}\n</nav_search>');
});

describe.each(PROTOCOLS)("$name protocol: results", ({ protocol }) => {
  test("one user message with a Tool Result section per call, then the notes", () => {
    const action = (index: number, name?: string) => ({ kind: "tool_call" as const, index, id: `call_${index + 1}`, name: name ?? "nav_search", arguments: {}, raw: "" });
    const outcomes: ActionOutcome[] = [
      { action: action(0), ok: true, value: [{ path: "a.ts", line: 3 }], chars: 26, truncated: false },
      { action: action(1, "nav_info"), ok: true, value: "x".repeat(10), chars: 50_000, truncated: true },
      { action: action(2), ok: false, error: "nav_search: missing required argument 'query'." },
      { action: { kind: "invalid_tool_call", index: 3, id: "call_4", raw: "{}", error: "unknown tool 'x'" }, ok: false, error: "unknown tool 'x'" },
    ];
    expect(protocol.renderResults(outcomes, ["A note."])).toEqual([
      {
        role: "user",
        content: [
          'Tool Result (nav_search):\n[{"path":"a.ts","line":3}]',
          "Tool Result (nav_info):\nxxxxxxxxxx\n[cut: the whole result is 50,000 characters]",
          "Tool Result (nav_search):\nError: nav_search: missing required argument 'query'.",
          "Tool Result (invalid call):\nError: unknown tool 'x'",
          "A note.",
        ].join("\n\n"),
      },
    ]);
  });
});
