import { describe, expect, test } from "vitest";
import { parseToolCalls, type ToolCallEvent } from "../../src/index.ts";
import { asJsonProtocol, asTaggedProtocol, RECORDED, RECORDED_TOOLS } from "./recorded-replies.ts";

const calls = (events: readonly ToolCallEvent[]) => events.flatMap((event) => (event.type === "tool_call" ? [{ name: event.name, arguments: event.arguments }] : []));

describe("model outputs recorded by vLLM's and Ollama's tool-parser tests", () => {
  test.for(RECORDED)("as written, json protocol: the Hermes shape is reported, never run ($label)", (reply) => {
    const events = parseToolCalls(reply.text, { protocol: "json", tools: RECORDED_TOOLS });
    expect(calls(events)).toEqual([]);
    expect(events.flatMap((event) => (event.type === "invalid_tool_call" ? [event.name] : []))).toEqual(reply.calls.map((call) => call.name));
    for (const event of events) if (event.type === "invalid_tool_call") expect(event.error).toContain('the tool is named by the key "tool", not "name"');
  });

  test.for(RECORDED)('with "tool" for "name", json protocol: the recorded calls, in order ($label)', (reply) => {
    expect(calls(parseToolCalls(asJsonProtocol(reply.text), { protocol: "json", tools: RECORDED_TOOLS }))).toEqual(reply.calls);
  });

  test.for(RECORDED.filter((reply) => asTaggedProtocol(reply) !== undefined))("as <name> blocks, tagged protocol: the recorded calls ($label)", (reply) => {
    expect(calls(parseToolCalls(asTaggedProtocol(reply)!, { protocol: "tagged", tools: RECORDED_TOOLS }))).toEqual(reply.calls);
  });

  test.for(RECORDED)("as written, tagged protocol: all text, since <tool_call> is not a tool ($label)", (reply) => {
    expect(parseToolCalls(reply.text, { protocol: "tagged", tools: RECORDED_TOOLS })).toEqual([{ type: "text", text: reply.text }]);
  });
});
