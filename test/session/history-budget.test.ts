import { describe, expect, test } from "vitest";
import { estimateUsage, runSession, ScriptedModel, type SessionEvent } from "../../src/index.ts";
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
});
