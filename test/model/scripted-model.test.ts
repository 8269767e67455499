import { describe, expect, test } from "vitest";
import { ScriptExhaustedError, ScriptedModel, type ChatMessage, type ModelStreamPart } from "../../src/index.ts";

const user = (content: string): ChatMessage => ({ role: "user", content });

describe("ScriptedModel", () => {
  test("answers with the scripted replies in order", async () => {
    const model = new ScriptedModel(["first", "second", "third"]);
    const texts: string[] = [];
    for (let index = 0; index < 3; index++) {
      texts.push((await model.complete({ messages: [user(`question ${index}`)] })).text);
    }
    expect(texts).toEqual(["first", "second", "third"]);
    expect(model.remaining).toBe(0);
  });

  test("function replies see the request's messages, sync or async", async () => {
    const model = new ScriptedModel([
      (request) => `you said ${request.messages.at(-1)?.content}`,
      async (request) => `${request.messages.length} messages`,
    ]);
    const first = await model.complete({ messages: [user("hello")] });
    const second = await model.complete({ messages: [user("hello"), { role: "assistant", content: first.text }, user("again")] });
    expect(first.text).toBe("you said hello");
    expect(second.text).toBe("3 messages");
  });

  test("a function reply that throws fails that call and the script moves on", async () => {
    const model = new ScriptedModel([
      () => {
        throw new Error("scripted failure");
      },
      "recovered",
    ]);
    await expect(model.complete({ messages: [user("a")] })).rejects.toThrow("scripted failure");
    expect((await model.complete({ messages: [user("b")] })).text).toBe("recovered");
  });

  test("records every request as a copy the caller cannot change afterwards", async () => {
    const model = new ScriptedModel(["one", "two"]);
    const messages: ChatMessage[] = [{ role: "system", content: "rules" }, user("first question")];
    await model.complete({ messages, maxTokens: 100, temperature: 0 });
    messages.push(user("second question"));
    (messages[1] as { content: string }).content = "changed";
    await model.complete({ messages });

    expect(model.requests).toHaveLength(2);
    expect(model.requests[0]).toEqual({ messages: [{ role: "system", content: "rules" }, user("first question")], maxTokens: 100, temperature: 0 });
    expect(model.requests[1].messages.map((message) => message.content)).toEqual(["rules", "changed", "second question"]);
    expect(Object.isFrozen(model.requests[0].messages)).toBe(true);
  });

  test("rejects with ScriptExhaustedError naming the reply count and the last user message", async () => {
    const model = new ScriptedModel(["only reply"]);
    await model.complete({ messages: [user("first")] });
    const messages: ChatMessage[] = [user("first"), { role: "assistant", content: "only reply" }, user("Output of block 1:\n  42\nNow answer with FINAL.")];
    const error = await model.complete({ messages }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ScriptExhaustedError);
    expect((error as ScriptExhaustedError).name).toBe("ScriptExhaustedError");
    expect((error as ScriptExhaustedError).scriptedReplies).toBe(1);
    expect((error as ScriptExhaustedError).requestNumber).toBe(2);
    expect((error as Error).message).toMatchInlineSnapshot(
      `"ScriptedModel ran out of replies: request 2 arrived but the script holds 1 reply (last user message: "Output of block 1: 42 Now answer with FINAL."). Add a reply to the script."`,
    );
    expect(model.requests).toHaveLength(2);
  });

  test("the exhaustion message shows only the start of a long user message", async () => {
    const model = new ScriptedModel([]);
    const error = (await model.complete({ messages: [user(`start ${"x".repeat(1000)}`)] }).catch((caught: unknown) => caught)) as Error;
    expect(error.message).toContain('request 1 arrived but the script holds 0 replies (last user message: "start xxx');
    expect(error.message).toContain("…");
    expect(error.message.length).toBeLessThan(300);
  });

  test("estimates usage from text length and marks it estimated", async () => {
    const model = new ScriptedModel(["12345678"]);
    const response = await model.complete({ messages: [{ role: "system", content: "abcd" }, user("abcde")] });
    // ceil(4/4) + ceil(5/4) = 3 prompt tokens; ceil(8/4) = 2 completion tokens
    expect(response.usage).toEqual({ promptTokens: 3, completionTokens: 2 });
    expect(response.usageEstimated).toBe(true);
    expect(response.finishReason).toBe("stop");
    expect(response.model).toBe("scripted");
  });

  test("reports fixed usage, model id and context window from options", async () => {
    const model = new ScriptedModel(["ok"], { modelId: "fake-7b", contextWindow: 32_768, usage: { promptTokens: 11, completionTokens: 7 } });
    const response = await model.complete({ messages: [user("hi")] });
    expect(model.modelId).toBe("fake-7b");
    expect(model.contextWindow).toBe(32_768);
    expect(response).toMatchObject({ model: "fake-7b", usage: { promptTokens: 11, completionTokens: 7 } });
    expect(response.usageEstimated).toBeUndefined();
  });

  test("a request with an already aborted signal rejects without using a reply", async () => {
    const model = new ScriptedModel(["kept"]);
    const controller = new AbortController();
    controller.abort(new Error("session timed out"));
    await expect(model.complete({ messages: [user("a")], signal: controller.signal })).rejects.toThrow("session timed out");
    expect(model.remaining).toBe(1);
    expect((await model.complete({ messages: [user("b")] })).text).toBe("kept");
  });

  test.each([
    ["a number", [42]],
    ["null", [null]],
  ])("rejects a script containing %s", (_label, replies) => {
    expect(() => new ScriptedModel(replies as never)).toThrow(/reply 0 is/);
  });

  test("scripts tool calls: default ids per request, values sent as JSON, raw text kept as written, finish reason tool-calls", async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ name: "nav_search", arguments: { query: "retry" } }, { name: "nav_read", arguments: '{"target": Retry' }] },
      { text: "done", toolCalls: [{ id: "mine", name: "nav_info" }], finishReason: "stop" },
    ]);
    const first = await model.complete({ messages: [user("a")] });
    const second = await model.complete({ messages: [user("b")] });
    expect(first).toMatchObject({ text: "", finishReason: "tool-calls", rawFinishReason: "tool_calls" });
    expect(first.toolCalls).toEqual([
      { id: "call_1_0", name: "nav_search", arguments: '{"query":"retry"}' },
      { id: "call_1_1", name: "nav_read", arguments: '{"target": Retry' },
    ]);
    expect(second).toMatchObject({ text: "done", finishReason: "stop", toolCalls: [{ id: "mine", name: "nav_info", arguments: "{}" }] });
  });

  test("streams a reply in its scripted chunks", async () => {
    const model = new ScriptedModel([{ chunks: ["Look", "ing."], reasoning: "hm", toolCalls: [{ id: "c", name: "nav_search", arguments: '{"query":"x"}', chunks: ['{"qu', 'ery":"x"}'] }] }]);
    const parts: ModelStreamPart[] = [];
    for await (const part of model.stream({ messages: [user("a")] })) parts.push(part);
    expect(parts.slice(0, -1)).toEqual([
      { type: "reasoning-delta", text: "hm" },
      { type: "text-delta", text: "Look" },
      { type: "text-delta", text: "ing." },
      { type: "tool-call-delta", index: 0, id: "c", name: "nav_search", argumentsDelta: '{"qu' },
      { type: "tool-call-delta", index: 0, argumentsDelta: 'ery":"x"}' },
    ]);
    expect(parts.at(-1)).toMatchObject({ type: "finish", response: { text: "Looking.", reasoning: "hm", toolCalls: [{ id: "c", arguments: '{"query":"x"}' }] } });
  });

  test.each([
    ["text chunks that do not join to the text", { text: "abc", chunks: ["ab"] }, /chunks do not join to its text/],
    ["argument chunks that do not join to the arguments", { toolCalls: [{ name: "t", arguments: "{}", chunks: ["{"] }] }, /tool call 0 \(t\): its chunks do not join/],
  ])("rejects a scripted turn with %s", async (_label, turn, message) => {
    await expect(new ScriptedModel([turn]).complete({ messages: [user("a")] })).rejects.toThrow(message);
  });

  test("records tools, tool choice, stop sequences and the tool fields of messages", async () => {
    const model = new ScriptedModel(["ok"]);
    const tools = [{ name: "nav_info", description: "Describes the repository.", parameters: { type: "object", properties: {} } }];
    const messages: ChatMessage[] = [
      user("q"),
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "nav_info", arguments: "{}", extra: { extra_content: { google: { thought_signature: "sig" } } } }] },
      { role: "tool", toolCallId: "c1", name: "nav_info", content: "{}" },
    ];
    await model.complete({ messages, tools, toolChoice: { name: "nav_info" }, stop: ["</x>"] });
    expect(model.requests[0]).toEqual({ messages, tools, toolChoice: { name: "nav_info" }, stop: ["</x>"] });
    expect(Object.isFrozen(model.requests[0].messages[1].toolCalls)).toBe(true);
  });
});
