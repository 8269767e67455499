import { describe, expect, test } from "vitest";
import {
  createNativeProtocol,
  defineTool,
  ModelCallError,
  ToolsUnsupportedError,
  type ActionOutcome,
  type JsonValue,
  type ModelResponse,
  type PromptSetup,
  type Protocol,
  type ReadReplyInput,
  type ToolCall,
} from "../../../src/index.ts";

const search = defineTool({
  name: "nav_search",
  description: "Searches the repository.",
  parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  handler: () => [],
});
const info = defineTool({ name: "nav_info", description: "Describes the repository.", parameters: { type: "object", properties: {} }, handler: () => ({}) });
const setup: PromptSetup = {
  tools: [search, info],
  navToolNames: new Set(["nav_search", "nav_info"]),
  contextDescription: "There is no `context`: the question is about the repository.",
  hasContext: false,
  hasRepo: true,
  sections: "",
  maxOutputChars: 20_000,
};
const native = createNativeProtocol();

function response(fields: Partial<ModelResponse>): ModelResponse {
  return { text: "", usage: { promptTokens: 1, completionTokens: 1 }, finishReason: "stop", model: "m", ...fields };
}
function read(fields: Partial<ModelResponse>, input: Partial<ReadReplyInput> = {}) {
  return native.readReply({ response: response(fields), keepReasoning: false, maxTokens: 4096, toolNames: new Set(["nav_search", "nav_info"]), ...input });
}
const call = (id: string, name: string, text: string, extra?: ToolCall["extra"]): ToolCall => ({ id, name, arguments: text, ...(extra ? { extra } : {}) });

describe("native: reading a reply", () => {
  test.for([
    { label: "one call", calls: [call("c1", "nav_search", '{"query":"retry"}')], actions: [{ kind: "tool_call", index: 0, id: "c1", name: "nav_search", arguments: { query: "retry" }, raw: '{"query":"retry"}' }] },
    {
      label: "parallel calls, in order",
      calls: [call("c1", "nav_search", '{"query":"a"}'), call("c2", "nav_info", "{}")],
      actions: [
        { kind: "tool_call", index: 0, id: "c1", name: "nav_search", arguments: { query: "a" }, raw: '{"query":"a"}' },
        { kind: "tool_call", index: 1, id: "c2", name: "nav_info", arguments: {}, raw: "{}" },
      ],
    },
    { label: "single quotes and a trailing comma are repaired", calls: [call("c1", "nav_search", "{'query': 'retry',}")], actions: [{ kind: "tool_call", index: 0, id: "c1", name: "nav_search", arguments: { query: "retry" }, raw: "{'query': 'retry',}" }] },
    { label: "empty arguments are {}", calls: [call("c1", "nav_info", "")], actions: [{ kind: "tool_call", index: 0, id: "c1", name: "nav_info", arguments: {}, raw: "" }] },
    // Arguments are read as sent; whether they fit the schema is checked when the call runs.
    { label: "arguments nested 64 deep are read", calls: [call("c1", "nav_search", `{"query":${"[".repeat(63)}${"]".repeat(63)}}`)], actions: [{ kind: "tool_call", index: 0, id: "c1", name: "nav_search", arguments: { query: JSON.parse(`${"[".repeat(63)}${"]".repeat(63)}`) as JsonValue }, raw: `{"query":${"[".repeat(63)}${"]".repeat(63)}}` }] },
    { label: "schema-invalid arguments still parse", calls: [call("c1", "nav_search", '{"query":7}')], actions: [{ kind: "tool_call", index: 0, id: "c1", name: "nav_search", arguments: { query: 7 }, raw: '{"query":7}' }] },
  ])("$label", ({ calls, actions }) => {
    const reply = read({ toolCalls: calls, finishReason: "tool-calls" });
    expect(reply.actions).toEqual(actions);
    expect(reply.withoutActions).toBeUndefined();
  });

  test.for([
    { label: "malformed JSON", call: call("c1", "nav_search", '{"query" "retry" ::'), error: /the arguments are not valid JSON \(.+\); send them as one JSON object/ },
    { label: "an array", call: call("c1", "nav_search", '["retry"]'), error: /must be a JSON object of named arguments, not an array/ },
    { label: "a bare string", call: call("c1", "nav_search", '"retry"'), error: /not a string/ },
    { label: "an unknown tool", call: call("c1", "nav_grep", '{"query":"x"}'), error: /there is no tool named 'nav_grep'; the tools are: nav_info, nav_search\./ },
    // Nothing downstream (schema validation, events, traces) may recurse 5,000 levels deep.
    { label: "arguments nested 5,000 deep", call: call("c1", "nav_search", `{"query":${"[".repeat(5_000)}${"]".repeat(5_000)}}`), error: /nest deeper than 64 levels; send a flatter JSON object/ },
  ])("a call with $label is an invalid_tool_call whose error the model gets", ({ call: bad, error }) => {
    const [action] = read({ toolCalls: [bad] }).actions;
    expect(action).toMatchObject({ kind: "invalid_tool_call", index: 0, id: "c1", name: bad.name, raw: bad.arguments });
    expect(action.kind === "invalid_tool_call" && action.error).toMatch(error);
  });

  test("the history keeps the text and every call as sent, provider extras included; reasoning only when kept", () => {
    const calls = [call("c1", "nav_search", '{"query":"a"}', { extra_content: { google: { thought_signature: "sig==" } } })];
    const plain = read({ text: "<think>plan</think>Searching.", reasoning: "server plan", toolCalls: calls });
    expect(plain.history).toEqual({ role: "assistant", content: "Searching.", toolCalls: calls });
    expect(plain.words).toBe("Searching.");
    expect(plain.reasoning).toBe("server plan\n\nplan");
    const kept = read({ text: "Searching.", reasoning: "server plan", toolCalls: calls }, { keepReasoning: true });
    expect(kept.history.content).toBe("<think>\nserver plan\n</think>\n\nSearching.");
  });

  test.for([
    { label: "text without a call is the answer", fields: { text: "Retry is decided in src/retry.ts:12." }, final: undefined, expected: { answer: "Retry is decided in src/retry.ts:12." } },
    { label: "with a final-answer tool, text alone is not an answer", fields: { text: "It is in src/retry.ts." }, final: "final_answer", expected: { why: "text only", text: /Nothing ran: your reply held only text, with no tool call\..*call `final_answer` with it/s } },
    { label: "an empty reply", fields: { text: "" }, final: undefined, expected: { why: "empty reply", text: /your reply was empty.*reply with it as plain text/s } },
    { label: "only reasoning", fields: { text: "", reasoning: "thinking…" }, final: undefined, expected: { why: "reasoning only", text: /held only reasoning/ } },
    { label: "a reply cut at the token limit is not taken for a whole answer", fields: { text: "The retry logic is in", finishReason: "length" as const }, final: undefined, expected: { why: "cut reply", text: /was cut at the 4096-token limit/ } },
  ])("no call: $label", ({ fields, final, expected }) => {
    const reply = read(fields, final ? { finalAnswerTool: final } : {});
    expect(reply.actions).toEqual([]);
    if ("answer" in expected) expect(reply.withoutActions).toEqual(expected);
    else expect(reply.withoutActions).toMatchObject({ why: expected.why, text: expect.stringMatching(expected.text) });
  });

  test("a cut reply with calls runs them and says where it was cut", () => {
    // The cut call would repair into {"query": "ret"}: a search never asked for.
    const reply = read({ toolCalls: [call("c1", "nav_search", "{'query': 'a'}"), call("c2", "nav_search", '{"query": "ret')], finishReason: "length" });
    expect(reply.actions.map((action) => action.kind)).toEqual(["tool_call", "invalid_tool_call"]);
    expect(reply.notes).toEqual([expect.stringMatching(/reached the 4096-token limit and was cut/)]);
  });
});

describe("native: rendering results", () => {
  const ok = (id: string, name: string, value: JsonValue, truncated = false, chars = 0): ActionOutcome => ({
    action: { kind: "tool_call", index: 0, id, name, arguments: {}, raw: "{}" },
    ok: true,
    value,
    chars,
    truncated,
  });
  test("one tool message per call, answering it by id, then the notes", () => {
    const messages = native.renderResults(
      [
        ok("c1", "nav_search", [{ path: "src/retry.ts", line: 3 }]),
        ok("c2", "nav_read", "class Retry {}"),
        ok("c3", "nav_read", "long…", true, 90_000),
        { action: { kind: "invalid_tool_call", index: 3, id: "c4", name: "nav_grep", raw: "{}", error: "there is no tool named 'nav_grep'" }, ok: false, error: "there is no tool named 'nav_grep'" },
      ],
      ["Your reply was cut."],
    );
    expect(messages).toEqual([
      { role: "tool", toolCallId: "c1", name: "nav_search", content: '[{"path":"src/retry.ts","line":3}]' },
      { role: "tool", toolCallId: "c2", name: "nav_read", content: "class Retry {}" },
      { role: "tool", toolCallId: "c3", name: "nav_read", content: "long…\n[cut: the whole result is 90,000 characters]" },
      { role: "tool", toolCallId: "c4", name: "nav_grep", content: "Error: there is no tool named 'nav_grep'" },
      { role: "user", content: "Your reply was cut." },
    ]);
  });
});

describe("native: the request and the prompt", () => {
  test("every tool goes in the request with its schema; tool_choice only when asked for", () => {
    expect(native.requestFields!(setup)).toEqual({
      tools: [
        { name: "nav_search", description: "Searches the repository.", parameters: search.parameters },
        { name: "nav_info", description: "Describes the repository.", parameters: info.parameters },
      ],
    });
    expect(createNativeProtocol({ toolChoice: "required" }).requestFields!(setup)).toMatchObject({ toolChoice: "required" });
  });

  test("the system prompt says how to answer, describes the input and the repository, and fills every slot", () => {
    const prompt = native.systemPrompt(setup);
    expect(prompt).toContain("reply with it as plain text and no tool call");
    expect(prompt).toContain(setup.contextDescription);
    expect(prompt).toContain("## The repository");
    expect(prompt).not.toMatch(/\{\{|```js|FINAL\(/);
    const withFinal = native.systemPrompt({ ...setup, hasRepo: false, finalAnswerTool: "final_answer" });
    expect(withFinal).toContain("call `final_answer` with it");
    expect(withFinal).not.toContain("## The repository");
  });
});

describe("native: degrading when the server refuses tools", () => {
  const json: Protocol = { ...native, name: "json" };
  const degrading = createNativeProtocol({ fallback: () => json });
  const refusal = new ToolsUnsupportedError({ baseURL: "http://127.0.0.1:1/v1", model: "m", status: 400, detail: "m does not support tools" });
  test.for([
    { label: "a refusal of tools, with a fallback", protocol: degrading, error: refusal, to: "json" },
    { label: "a refusal of tools, without a fallback", protocol: native, error: refusal, to: undefined },
    { label: "another model failure", protocol: degrading, error: new ModelCallError({ failure: "status", status: 500, baseURL: "u", model: "m", attempts: 4, retryable: true }), to: undefined },
  ])("$label", ({ protocol, error, to }) => {
    expect(protocol.degradeOn!(error)?.name).toBe(to);
  });
});
