import { describe, expect, test } from "vitest";
import { OpenAICompatibleModel, runSession, ScriptedModel, type SessionEvent } from "../../src/index.ts";
import { startOpenAIServer } from "../support/openai-server.ts";
import { buildSessionTree } from "../../src/view/session-tree.ts";
import { parseTrace } from "../../src/view/read-trace.ts";
import { renderTraceHtml } from "../../src/view/render-trace-html.ts";
import { recordSampleTrace } from "./trace-fixture.ts";

const { events } = await recordSampleTrace();
const html = renderTraceHtml(events);

describe("renderTraceHtml", () => {
  test("escapes everything the model wrote: no markup from the trace reaches the page", () => {
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<i>be brief</i>");
    expect(html).not.toContain("<b>retry</b>");
    expect(html).toContain("&lt;/pre&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).toContain("owned by team-retry &lt;team&gt;");
  });

  test("needs no network: a CSP that forbids fetching, no external references", () => {
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    expect(html).not.toMatch(/\b(src|href)="(https?:)?\/\//);
  });

  test("nests the child session of rlm_query under the block that started it", () => {
    const [root, ...others] = buildSessionTree(events);
    expect(others).toHaveLength(0);
    const third = root.turns.find((turn) => turn.iteration === 3)!;
    expect(third.blocks[0].children).toHaveLength(1);
    expect(third.blocks[0].children[0].start?.question).toBe("How many files?");
    expect(third.blocks[0].other.some((event) => event.type === "subcall_end" && event.kind === "llm")).toBe(true);
  });

  test("shows per-step cost when the events carry it, and the total", () => {
    expect(html).toMatch(/\$0\.00\d\d/);
    expect(html).toContain("cost <b>$");
  });

  test("estimated usage and unknown prices read as such, never as a measured $0.0000", async () => {
    const local: SessionEvent[] = [];
    await runSession({ question: "q", model: new ScriptedModel(["```js\nFINAL(1)\n```"], { modelId: "local-model" }), onEvent: (event) => local.push(event) });
    const page = renderTraceHtml(local);
    expect(page).toContain("cost <b>cost unknown</b>");
    expect(page).toContain("completion tokens (estimated: the server reported no usage)");
    expect(page).not.toContain("$0.0000");
    // The sample trace's models are priced and report their usage.
    expect(html).not.toContain("cost unknown");
    expect(html).not.toContain("(estimated");
  });

  test("a turn lists the requests that were retried before its reply, with status and wait", async () => {
    await using server = await startOpenAIServer([{ status: 503, headers: { "retry-after-ms": "20" } }, "```js\nFINAL(1)\n```"]);
    const retried: SessionEvent[] = [];
    await runSession({ question: "q", model: new OpenAICompatibleModel({ baseURL: server.url, model: "m" }), onEvent: (event) => retried.push(event) });
    const page = renderTraceHtml(retried);
    expect(page).toContain("<span>1 retry (503, waited 20 ms)</span>");
    // Progress-only events are not listed as unknown events.
    expect(page).not.toContain("<b>model_request</b>");
  });

  test("an llm_query's retries stay with the block that made the call, not the turn's own reply", async () => {
    await using server = await startOpenAIServer([{ status: 429, headers: { "retry-after-ms": "10" } }, "short"]);
    const events: SessionEvent[] = [];
    await runSession({ question: "q", model: new ScriptedModel(["```js\nFINAL(await llm_query('p'))\n```"]), subModel: new OpenAICompatibleModel({ baseURL: server.url, model: "sub" }), onEvent: (event) => events.push(event) });
    const page = renderTraceHtml(events);
    expect(page).toContain("<b>llm_query retried</b> attempt 1/4 failed (429), waited 10 ms");
    expect(page).not.toMatch(/\d+ retr(y|ies) \(/);
  });

  test("a trace cut short still renders, listing its unreadable lines", () => {
    const lines = events.slice(0, 4).map((event) => JSON.stringify(event));
    const parsed = parseTrace(`${lines.join("\n")}\n{"type": "model_ca`);
    expect(parsed.problems).toEqual(["line 5: not JSON"]);
    const partial = renderTraceHtml(parsed.events as SessionEvent[], { problems: parsed.problems });
    expect(partial).toContain("unfinished");
    expect(partial).toContain("line 5: not JSON");
  });
});

describe("replaying the sample trace (sub-calls included)", () => {
  test("reproduces the recorded answer with root and sub-model replies from the trace", async () => {
    const { replaySession } = await import("../../src/replay/replay-session.ts");
    const { defineTool } = await import("../../src/index.ts");
    const lookup = defineTool({
      name: "lookup_owner",
      description: "Finds the owner of a module.",
      parameters: { type: "object", properties: { module: { type: "string" } }, required: ["module"] },
      handler: ({ module }) => ({ module, owner: "team-retry", files: 3 }),
    });
    const outcome = await replaySession({ events, tools: [lookup] });
    expect(outcome.differences).toEqual([]);
    expect(outcome.reproduced).toBe(true);
    expect(outcome.replies).toEqual({ recorded: 4, used: 4 });
  });
});
