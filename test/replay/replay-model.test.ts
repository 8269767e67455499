import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { OpenAICompatibleModel, runSession, ScriptedModel } from "../../src/index.ts";
import { startOpenAIServer } from "../support/openai-server.ts";
import { ReplayModel } from "../../src/replay/index.ts";
import { readTrace } from "../../src/view/read-trace.ts";
import { js } from "../support/scripted-replies.ts";
import { tempDir } from "../support/temp-dir.ts";

describe("ReplayModel", () => {
  test("a concurrent llm_query_batched replays each prompt's own reply, whatever order the calls finish in", async () => {
    const tracePath = join(tempDir("rlmkit-replay-"), "trace.jsonl");
    const question = "Shout every word.";
    const script = js('const words = ["alpha", "beta", "gamma", "delta"]\nconst loud = await llm_query_batched(words.map((w) => "shout " + w))\nFINAL(loud)');
    // Later prompts answer sooner, so the recorded replies come in reverse order.
    const subModel = new ScriptedModel(
      Array.from({ length: 4 }, () => async (request) => {
        const word = request.messages[0].content.replace("shout ", "");
        await new Promise((resolve) => setTimeout(resolve, (6 - word.length) * 40));
        return word.toUpperCase();
      }),
      { modelId: "sub" },
    );
    const recorded = await runSession({ question, model: new ScriptedModel([script]), subModel, tracePath });
    expect(recorded.answer).toEqual(["ALPHA", "BETA", "GAMMA", "DELTA"]);
    const { events } = readTrace(tracePath);
    const endOrder = events.filter((event) => event.type === "subcall_end").map((event) => (event as { response?: unknown }).response);
    expect(endOrder).not.toEqual(["ALPHA", "BETA", "GAMMA", "DELTA"]);

    const replaySub = ReplayModel.subModelFromEvents(events);
    const replayed = await runSession({ question, model: ReplayModel.fromEvents(events), subModel: replaySub });
    expect(replayed).toMatchObject({ status: "final", answer: ["ALPHA", "BETA", "GAMMA", "DELTA"] });
    expect(replaySub.used).toBe(4);
    expect(replaySub.recorded).toBe(4);
  });

  test("reasoning sent in the server's own field replays as reasoning: the same nudges, the same answer", async () => {
    await using server = await startOpenAIServer([{ text: "", reasoning: js("FINAL(1)") }, { text: `<think>${js("FINAL(2)")}</think>` }, js("FINAL(3)")]);
    const tracePath = join(tempDir("rlmkit-replay-"), "trace.jsonl");
    const recorded = await runSession({ question: "q", model: new OpenAICompatibleModel({ baseURL: server.url, model: "m", maxRetries: 0 }), tracePath });
    const { events } = readTrace(tracePath);
    const replayEvents: { type: string; text?: string }[] = [];
    const replayed = await runSession({ question: "q", model: ReplayModel.fromEvents(events), onEvent: (event) => replayEvents.push(event) });
    expect(recorded).toMatchObject({ status: "final", answer: 3 });
    expect(replayed).toMatchObject({ status: "final", answer: 3 });
    const feedback = (list: readonly { type: string; text?: string }[]) => list.filter((event) => event.type === "feedback").map((event) => event.text);
    expect(feedback(replayEvents)).toEqual(feedback(events));
    expect(feedback(replayEvents)[0]).toContain("only reasoning");
    const reasoning = (list: readonly { type: string; reasoning?: string }[]) => list.filter((event) => event.type === "model_call").map((event) => event.reasoning);
    expect(reasoning(replayEvents)).toEqual(reasoning(events));
  });
});
