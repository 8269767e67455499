import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runSession, ScriptedModel } from "../../src/index.ts";
import { ReplayModel } from "../../src/replay/index.ts";
import { readTrace } from "../../src/view/read-trace.ts";

const js = (code: string) => "```js\n" + code + "\n```";

describe("ReplayModel", () => {
  test("a concurrent llm_query_batched replays each prompt's own reply, whatever order the calls finish in", async () => {
    const tracePath = join(mkdtempSync(join(tmpdir(), "rlmkit-replay-")), "trace.jsonl");
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
});
