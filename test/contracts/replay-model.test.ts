import { describe } from "vitest";
import { ReplayModel } from "../../src/replay/index.ts";
import { parseTrace } from "../../src/view/index.ts";
import { modelClientContract, type ContractReply } from "./model-client.contract.ts";

/** A trace (JSONL text, as a session writes it) whose root session received `replies`. */
function traceOf(replies: readonly ContractReply[]): string {
  const base = { sessionId: "s1", depth: 0, timestamp: "2026-01-01T00:00:00.000Z" };
  const events = [
    { ...base, type: "session_start", question: "Where is retry decided?", model: "recorded-model", maxIterations: 10 },
    ...replies.map((reply, index) => ({
      ...base,
      type: "model_call",
      iteration: index + 1,
      model: "recorded-model",
      messages: 2,
      promptTokens: 40,
      completionTokens: 12,
      usageEstimated: false,
      durationMs: 5,
      finishReason: reply.toolCalls ? "tool_calls" : "stop",
      text: reply.text,
      ...(reply.reasoning !== undefined ? { reasoning: reply.reasoning } : {}),
      ...(reply.toolCalls ? { toolCalls: reply.toolCalls.map(({ id, name, arguments: text }) => ({ id, name, arguments: text })) } : {}),
    })),
  ];
  return events.map((event) => JSON.stringify(event)).join("\n");
}

describe("ModelClient contract: ReplayModel, from a trace", () => {
  modelClientContract({
    async create(replies) {
      const { events, problems } = parseTrace(traceOf(replies));
      if (problems.length > 0) throw new Error(`the test trace does not parse: ${problems.join("; ")}`);
      return ReplayModel.fromEvents(events);
    },
  });
});
