import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNavTools, defineTool, runSession, ScriptedModel, type NavTools, type SessionEvent, type Tool } from "../../src/index.ts";
import { js } from "../support/scripted-replies.ts";

// Every system prompt a session can get (its input × extra tools × sub-calls) is rendered through
// runSession, and every ```js example in it is run as the model's reply in a session of the same
// kind: an example may use only the variables and functions that session has.

const navRepo = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "nav-repo");
const LOG = Array.from({ length: 40 }, (_, i) => `2026-01-01T00:00:${String(i).padStart(2, "0")} ERROR E${100 + (i % 7)} request failed`).join("\n");

const lookupUser = defineTool({
  name: "lookup_user",
  description: "Finds a user by id.",
  parameters: { type: "object", properties: { id: { type: "number" } }, required: ["id"] },
  example: "const user = lookup_user(42)",
  handler: ({ id }) => ({ id, name: "Ada" }),
});

type Input = "context" | "repo" | "neither";
interface Combination {
  readonly label: string;
  readonly input: Input;
  readonly tools: boolean;
  readonly subcalls: boolean;
}

const combinations: Combination[] = (["context", "repo", "neither"] as const).flatMap((input) =>
  [true, false].flatMap((tools) => [true, false].map((subcalls) => ({ label: `${input}, ${tools ? "extra tool" : "no extra tool"}, sub-calls ${subcalls ? "on" : "off"}`, input, tools, subcalls }))),
);

let nav: NavTools;
beforeAll(async () => {
  nav = await createNavTools(navRepo, { cacheDir: false });
});
afterAll(async () => {
  await nav?.close();
});

/** Runs one session of the combination whose model replies with `replies`; returns the events and the first request's system prompt. */
async function runCombination({ input, tools, subcalls }: Combination, replies: string[]): Promise<{ system: string; events: SessionEvent[] }> {
  const model = new ScriptedModel(replies);
  const subModel = new ScriptedModel(Array.from({ length: 40 }, (_, i) => `E10${i % 7}`), { modelId: "sub" });
  const events: SessionEvent[] = [];
  await runSession({
    question: "Which error codes appear?",
    model,
    subModel,
    subcalls,
    maxIterations: replies.length,
    timeoutMs: 20_000,
    ...(input === "context" ? { context: LOG } : {}),
    ...(input === "repo" ? { repo: nav } : {}),
    ...(tools ? { tools: [lookupUser as Tool] } : {}),
    onEvent: (event) => events.push(event),
  });
  return { system: model.requests[0]!.messages[0]!.content, events };
}

function jsBlocks(text: string): string[] {
  return [...text.matchAll(/```js\n([\s\S]*?)```/g)].map((match) => match[1]!.trimEnd());
}

describe("every system prompt combination shows only what the session has", () => {
  test.each(combinations)("$label: each ```js example runs in a session of the same kind", async (combination) => {
    const { system } = await runCombination(combination, [js('FINAL("rendered")')]);
    const blocks = jsBlocks(system);
    expect(blocks.length).toBeGreaterThan(0);

    // The sections and examples present are the ones that fit.
    expect(system.includes("## Sub-calls")).toBe(combination.subcalls);
    expect(system.includes("## The repository")).toBe(combination.input === "repo");
    expect(system.includes("lookup_user")).toBe(combination.tools);
    if (combination.input !== "context") expect(system).not.toMatch(/\bcontext\.(split|slice|length)\b/);
    if (!combination.tools && combination.input !== "repo") expect(system).not.toMatch(/tool/i);

    for (const block of blocks) {
      const { events } = await runCombination(combination, [js(block), js('FINAL("done")')]);
      const failures = events.flatMap((event) => {
        if (event.type === "sandbox_result" && event.iteration === 1 && event.error) return [`${event.error.name}: ${event.error.message}`];
        if (event.type === "intercept_rejected" && event.iteration === 1) return event.problems.map((problem) => problem.message);
        if (event.type === "tool_call" && event.iteration === 1 && event.error) return [`${event.tool}: ${event.error}`];
        return [];
      });
      expect({ block, failures }).toEqual({ block, failures: [] });
    }
  }, 30_000);
});
