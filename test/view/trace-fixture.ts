import { join } from "node:path";
import { defineTool, runSession, ScriptedModel, type SessionEvent } from "../../src/index.ts";
import { tempDir } from "../support/temp-dir.ts";

/**
 * Records a real session (real sandbox, a host tool, an llm_query sub-call, a
 * child rlm_query session) whose replies exercise every part of the view: an
 * intercepted call, a rejected block, a runtime error, output, and hostile
 * markup written by the "model". The trace is written to a temporary folder,
 * removed when the test file's tests have finished.
 */
export async function recordSampleTrace(): Promise<{ events: SessionEvent[]; tracePath: string }> {
  const tracePath = join(tempDir("rlmkit-view-"), "sample.jsonl");
  const lookup = defineTool({
    name: "lookup_owner",
    description: "Finds the owner of a module.",
    parameters: { type: "object", properties: { module: { type: "string" } }, required: ["module"] },
    handler: ({ module }) => ({ module, owner: "team-retry", files: 3 }),
  });
  const model = new ScriptedModel(
    [
      "Let me look it up.\n```js\nconst owner = lookup_owner(\"retry\")\nprint(`owner: ${owner.owner}, files: ${owner.files}`)\n```",
      "```js\nfor (const name of ['retry']) { const again = lookup_owner(name) }\n```\n```js\nundefinedFunction()\n```",
      "```js\nconst summary = await llm_query('Summarise: <b>retry</b> doubles the delay')\nconst child = await rlm_query('How many files?', { files: 3 })\nprint(summary, child)\n```",
      "```js\nprint('</pre><script>alert(\"x\")</script>')\nFINAL(`The retry module is owned by ${owner.owner} <team>; it doubles the delay.`)\n```",
    ],
    { modelId: "writer-model", usage: { promptTokens: 900, completionTokens: 60 } },
  );
  const subModel = new ScriptedModel(["retry waits twice as long after each failure", "```js\nFINAL(context.files)\n```"], { modelId: "sub-model", usage: { promptTokens: 120, completionTokens: 12 } });
  const events: SessionEvent[] = [];
  await runSession({
    question: "Who owns the retry module, and what does it do? <i>be brief</i>",
    model,
    subModel,
    tools: [lookup],
    tracePath,
    prices: { "writer-model": { inputPerMillion: 3, outputPerMillion: 15 }, "sub-model": { inputPerMillion: 0.5, outputPerMillion: 1 } },
    onEvent: (event) => events.push(event),
  });
  return { events, tracePath };
}
