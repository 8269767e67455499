import { describe, expect, test } from "vitest";
import { defineTool, estimateUsage, runSession, ScriptedModel, type ChatMessage, type ScriptedReply, type SessionEvent } from "../../src/index.ts";
import { js } from "../support/scripted-replies.ts";

describe("a history that fits the model's context window", () => {
  test("a 60-turn session with large outputs never sends more than the window, and answers from variables set in turn 1", async () => {
    const contextWindow = 16_000;
    const replies = [
      js('const secret = context.length * 7;\nconst label = "from turn 1";\nprint("a".repeat(30_000))'),
      // Turns 2–59: long replies and outputs cut at the sandbox's 20,000-character cap.
      ...Array.from({ length: 58 }, (_, index) => `Looking further (${index + 2}). ${"Some prose. ".repeat(300)}\n${js(`const step${index + 2} = ${index + 2};\nprint("${index % 10}".repeat(30_000))`)}`),
      js("FINAL(`${label}: ${secret}`)"),
    ];
    const model = new ScriptedModel(replies, { contextWindow });
    const events: SessionEvent[] = [];
    const result = await runSession({ question: "What is the secret?", context: "0123456789", model, maxIterations: 60, onEvent: (event) => events.push(event) });

    expect(result).toMatchObject({ status: "final", answer: "from turn 1: 70", iterations: 60 });
    expect(model.requests).toHaveLength(60);
    for (const request of model.requests) {
      expect(request.maxTokens).toBe(4096);
      expect(estimateUsage(request.messages, "").promptTokens + request.maxTokens!).toBeLessThanOrEqual(contextWindow);
    }
    // The model was told, and turn 1's record (what it defined) survived every compaction.
    const last = model.requests.at(-1)!.messages;
    expect(last[1]!.content).toMatch(/Turns 1–\d+ were compacted to fit the model's context window/);
    expect(last[1]!.content).toContain("turn 1: block 1 defines secret, label");
    expect(last[0]!.content).toBe(model.requests[0]!.messages[0]!.content);
    // Roles still alternate after the question.
    expect(last.slice(2).map((message) => message.role)).toEqual(last.slice(2).map((_, index) => (index % 2 === 0 ? "assistant" : "user")));
    const compactions = events.filter((event) => event.type === "history_compacted");
    expect(compactions.length).toBeGreaterThan(5);
    for (const compaction of compactions) expect(compaction.tokensAfter).toBeLessThan(compaction.tokensBefore);
  });

  test("without a known context window nothing is compacted", async () => {
    const model = new ScriptedModel([js('print("a".repeat(20_000))'), js('print("b".repeat(20_000))'), js("FINAL(1)")]);
    const events: SessionEvent[] = [];
    await runSession({ question: "q", model, onEvent: (event) => events.push(event) });
    expect(events.some((event) => event.type === "history_compacted")).toBe(false);
    expect(model.requests[2]!.messages).toHaveLength(6);
  });

  test("the option wins over the model's own window, and caps maxTokens at half of it", async () => {
    const model = new ScriptedModel([js('print("a".repeat(20_000))'), js('print("b".repeat(20_000))'), js("FINAL(1)")], { contextWindow: 1_000_000 });
    await runSession({ question: "q", model, contextWindow: 6_000 });
    expect(model.requests.map((request) => request.maxTokens)).toEqual([3000, 3000, 3000]);
    for (const request of model.requests) expect(estimateUsage(request.messages, "").promptTokens + 3000).toBeLessThanOrEqual(6_000);
    expect(model.requests[2]!.messages[1]!.content).toContain("compacted");
  });

  test("native tool calling: turns are compacted whole, and every tool result stays right after the reply that called it", async () => {
    const contextWindow = 12_000;
    const page = defineTool({
      name: "page",
      description: "Returns a long page of text.",
      parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
      handler: ({ n }) => `${n}:`.padEnd(9_000, String(n)),
    });
    // Each reply calls the tool twice: two `tool` messages answer one assistant message.
    const call = (turn: number): ScriptedReply => ({ text: `Turn ${turn}.`, toolCalls: [0, 1].map((k) => ({ id: `call_${turn}_${k}`, name: "page", arguments: JSON.stringify({ n: turn * 10 + k }) })) });
    const model = new ScriptedModel([...Array.from({ length: 12 }, (_, index) => call(index + 1)), "The pages are read."], { contextWindow });
    const events: SessionEvent[] = [];
    const result = await runSession({ question: "Read the pages.", model, tools: [page], protocol: "native", subcalls: false, maxIterations: 20, onEvent: (event) => events.push(event) });

    expect(result).toMatchObject({ status: "final", answer: "The pages are read." });
    expect(events.some((event) => event.type === "history_compacted")).toBe(true);
    for (const request of model.requests) {
      expect(estimateUsage(request.messages, "").promptTokens + request.maxTokens!).toBeLessThanOrEqual(contextWindow);
      expectToolResultsAnswerTheirCalls(request.messages);
    }
    const last = model.requests.at(-1)!.messages;
    expect(last[1]!.content).toMatch(/Turns 1–\d+ were compacted/);
    expect(last.filter((message) => message.role === "tool").length).toBeGreaterThan(0);
  });
});

/** Every `tool` message follows (directly or after other results) the assistant message holding its call, and every call is answered. */
function expectToolResultsAnswerTheirCalls(messages: readonly ChatMessage[]): void {
  let open: string[] = [];
  for (const message of messages) {
    if (message.role === "tool") {
      expect(open).toContain(message.toolCallId);
      open = open.filter((id) => id !== message.toolCallId);
      continue;
    }
    expect(open).toEqual([]);
    open = message.role === "assistant" ? (message.toolCalls ?? []).map((toolCall) => toolCall.id) : [];
  }
}
