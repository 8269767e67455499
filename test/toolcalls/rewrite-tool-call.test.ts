import { describe, expect, test } from "vitest";
import { defineTool, rewriteToolCall, ScriptedModel } from "../../src/index.ts";

const search = defineTool({
  name: "nav_search",
  description: "Searches the repository's lines.",
  parameters: { type: "object", properties: { query: { type: "string" }, limit: { type: "integer", minimum: 1 } }, required: ["query"], additionalProperties: false },
  handler: () => [],
});
const read = defineTool({ name: "nav_read", description: "Reads a symbol or file.", parameters: { type: "object", properties: { target: { type: "string" } }, required: ["target"] }, handler: () => "" });
const tools = [search, read];
const fenced = (json: string) => "Here it is:\n```json\n" + json + "\n```";

describe("rewriteToolCall: one request to the fallback model, its reply checked like any call", () => {
  test("a call whose JSON does not parse is rewritten; the model is shown the call, the error and that tool's schema only", async () => {
    const fallback = new ScriptedModel([fenced('{"tool": "nav_search", "arguments": {"query": "retry", "limit": 5}}')]);
    const raw = '<nav_search>{query = "retry", limit: 5}</nav_search>';
    const result = await rewriteToolCall({ model: fallback, tools, name: "nav_search", raw, error: "nav_search: the arguments are not valid JSON" });
    expect(result).toMatchObject({ ok: true, name: "nav_search", arguments: { query: "retry", limit: 5 } });
    expect(fallback.requests).toHaveLength(1);
    const prompt = fallback.requests[0]!.messages[0]!.content;
    expect(prompt).toContain(raw);
    expect(prompt).toContain("nav_search: the arguments are not valid JSON");
    expect(prompt).toContain(JSON.stringify(search.parameters));
    expect(prompt).not.toContain("nav_read");
    expect(prompt).toContain("The tool is `nav_search`.");
  });

  test("arguments the schema refuses are rewritten (reasoning in the reply is ignored)", async () => {
    const fallback = new ScriptedModel(['<think>{"tool": "nav_search", "arguments": {"query": 7}}</think>{"tool": "nav_search", "arguments": {"query": "7"}}']);
    const result = await rewriteToolCall({ model: fallback, tools, name: "nav_search", raw: '{"tool": "nav_search", "arguments": {"query": 7}}', error: "nav_search: query must be string" });
    expect(result).toMatchObject({ ok: true, arguments: { query: "7" } });
  });

  test("a call naming no known tool is shown every tool's schema; the model picks", async () => {
    const fallback = new ScriptedModel([fenced('{"tool": "nav_read", "arguments": {"target": "Backoff"}}')]);
    const result = await rewriteToolCall({ model: fallback, tools, raw: '{"tool": "read_file", "arguments": {"path": "Backoff"}}', error: "unknown tool 'read_file'" });
    expect(result).toMatchObject({ ok: true, name: "nav_read", arguments: { target: "Backoff" } });
    const prompt = fallback.requests[0]!.messages[0]!.content;
    expect(prompt).toContain("### nav_search");
    expect(prompt).toContain("### nav_read");
    expect(prompt).toContain("Choose the tool the call meant.");
  });

  test.for([
    { label: "prose without a call", reply: "I cannot fix this.", error: /^the rewrite held no valid call$/ },
    { label: "arguments still invalid", reply: fenced('{"tool": "nav_search", "arguments": {"query": "x", "limit": 0}}'), error: /^the rewrite is still invalid: nav_search: limit must be >= 1/ },
    { label: "a call of another tool than the one named", reply: fenced('{"tool": "nav_read", "arguments": {"target": "x"}}'), error: /^the rewrite held no valid call \(unknown tool 'nav_read'; the tools are nav_search\)$/ },
    { label: "JSON that still does not parse", reply: '{"tool": "nav_search", "arguments": {"query"= "x"}}', error: /^the rewrite held no valid call \(nav_search: not valid JSON/ },
  ])("the fallback failing — $label — is ok: false with the reason", async ({ reply, error }) => {
    const result = await rewriteToolCall({ model: new ScriptedModel([reply]), tools, name: "nav_search", raw: "{query: }", error: "not valid JSON" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(error);
  });

  test("the fallback model throwing is ok: false, not a throw", async () => {
    const broken = new ScriptedModel([() => { throw new Error("connection refused"); }]);
    await expect(rewriteToolCall({ model: broken, tools, name: "nav_search", raw: "{}", error: "x" })).resolves.toEqual({ ok: false, error: "the rewrite failed: connection refused" });
  });

  test("an aborted rewrite rejects", async () => {
    const controller = new AbortController();
    const slow = new ScriptedModel([() => { controller.abort(new Error("session ended")); throw new Error("aborted"); }]);
    await expect(rewriteToolCall({ model: slow, tools, raw: "{}", error: "x", signal: controller.signal })).rejects.toThrow("aborted");
  });
});
