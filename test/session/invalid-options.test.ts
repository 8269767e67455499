import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { defineTool, InvalidOptionsError, RepositoryNotFoundError, runSession, ScriptedModel, type SessionEvent, type SessionOptions } from "../../src/index.ts";
import { tempDir } from "../support/temp-dir.ts";

const tool = defineTool({ name: "lookup", description: "Finds a user.", parameters: { type: "object", properties: {} }, handler: () => null });
const FULL_TEMPLATE = "Input: {{context_description}}\n{{tools_section}}\n{{extra_sections}}\n{{example}} (output up to {{max_output_chars}})";

describe("invalid options reject before anything starts, with InvalidOptionsError naming the option", () => {
  test.each([
    { label: "an empty question", options: { question: " " }, option: "question", message: /question must be a non-empty string/ },
    { label: "a model without complete()", options: { model: {} as never }, option: "model", message: /model must be a ModelClient/ },
    { label: "zero iterations", options: { maxIterations: 0 }, option: "maxIterations", message: /maxIterations must be a positive integer, got 0/ },
    { label: "a negative time limit", options: { timeoutMs: -5 }, option: "timeoutMs", message: /timeoutMs must be a positive number/ },
    { label: "a tool result cap of zero", options: { maxToolResultChars: 0 }, option: "maxToolResultChars", message: /maxToolResultChars must be a positive integer/ },
    { label: "a template with an unknown slot", options: { systemPromptTemplate: `${FULL_TEMPLATE} {{question}}` }, option: "systemPromptTemplate", message: /unknown slot \{\{question\}\}; the slots are \{\{max_output_chars\}\}, \{\{context_description\}\}/ },
    { label: "a template without the tools slot, in a session with tools", options: { tools: [tool], systemPromptTemplate: FULL_TEMPLATE.replace("{{tools_section}}", "") }, option: "systemPromptTemplate", message: /missing \{\{tools_section\}\}, which carries this session's tools/ },
    { label: "a template without the sections slot, in a session with sub-calls", options: { systemPromptTemplate: FULL_TEMPLATE.replace("{{extra_sections}}", "") }, option: "systemPromptTemplate", message: /missing \{\{extra_sections\}\}/ },
    { label: "a template that is not a string", options: { systemPromptTemplate: 42 as never }, option: "systemPromptTemplate", message: /must be a string/ },
    { label: "two tools with one name", options: { tools: [tool, tool] }, option: "tools", message: /two tools are named 'lookup'/ },
    { label: "a negative token budget", options: { budget: { maxTokens: -1 } }, option: "budget.maxTokens", message: /budget.maxTokens must be a non-negative number/ },
  ] as { label: string; options: Partial<SessionOptions>; option: string; message: RegExp }[])("$label", async ({ options, option, message }) => {
    const model = new ScriptedModel([]);
    const events: SessionEvent[] = [];
    const run = runSession({ question: "q", model, onEvent: (event) => events.push(event), ...options });
    await expect(run).rejects.toThrow(message);
    const error = await run.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidOptionsError);
    expect(error).toMatchObject({ name: "InvalidOptionsError", option });
    expect(events).toEqual([]);
    expect(model.requests).toEqual([]);
  });

  test("a template with every slot, or without the sections a session does not need, is accepted", async () => {
    const model = new ScriptedModel(['```js\nFINAL("ok")\n```']);
    await expect(runSession({ question: "q", model, systemPromptTemplate: FULL_TEMPLATE, tools: [tool] })).resolves.toMatchObject({ status: "final" });
    const plain = new ScriptedModel(['```js\nFINAL("ok")\n```']);
    await expect(runSession({ question: "q", model: plain, subcalls: false, systemPromptTemplate: "Answer. {{context_description}}" })).resolves.toMatchObject({ status: "final" });
    expect(plain.requests[0].messages[0].content).toMatch(/^Answer\. There is no `context` variable/);
  });

  test("a repository that does not exist rejects with RepositoryNotFoundError", async () => {
    const missing = join(tempDir("rlmkit-options-"), "no-such-repo");
    const error = await runSession({ question: "q", model: new ScriptedModel([]), repo: missing }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RepositoryNotFoundError);
    expect(error).toMatchObject({ name: "RepositoryNotFoundError", repo: missing, message: `'${missing}' is not a readable directory; give the path of a repository folder` });
  });
});
