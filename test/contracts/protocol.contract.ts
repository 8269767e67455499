/**
 * The Protocol contract: what every protocol must do, one suite run against each
 * (`protocols.test.ts`). A protocol gives three replies written its own way; the
 * suite derives the rest (calls inside reasoning, a faked tool result) and checks
 * the prompt, the reading of replies and the rendering of results. Only the public
 * API is used.
 */
import { describe, expect, test } from "vitest";
import { defineTool, type ActionOutcome, type ModelResponse, type PromptSetup, type Protocol, type ReadReply } from "../../src/index.ts";

/** A reply: its text, or the text and the tool calls a provider sent apart from it (native tool calling). */
export type ReplyFixture = string | Pick<ModelResponse, "text" | "toolCalls">;

/** Replies written in the protocol's own way. */
export interface ProtocolFixtures {
  /** A reply that calls `lookup` with the key "alpha" (in a code block, for `code`). */
  readonly oneCall: ReplyFixture;
  /** A reply that calls `lookup` twice, "alpha" then "beta". */
  readonly twoCalls: ReplyFixture;
  /** A reply in prose, with no call. */
  readonly noCall: ReplyFixture;
  /** The call of `oneCall` as the model would write it in text, for the rows that put it inside reasoning. Default: `oneCall` when it is text. */
  readonly callAsText?: string;
}

const lookup = defineTool({
  name: "lookup",
  description: "Looks a key up in the table.",
  parameters: { type: "object", properties: { key: { type: "string", description: "the key" } }, required: ["key"] },
  handler: ({ key }) => `value of ${key}`,
});
const countRows = defineTool({
  name: "count_rows",
  description: "Counts the rows of the table.",
  parameters: { type: "object", properties: {} },
  handler: () => 3,
});

const setup: PromptSetup = { tools: [lookup, countRows], navToolNames: new Set(), contextDescription: "There is no context.", hasContext: false, hasRepo: false, sections: "", maxOutputChars: 20_000 };
const toolNames = new Set(["lookup", "count_rows"]);

function response(reply: ReplyFixture, extra: Partial<ModelResponse> = {}): ModelResponse {
  const fields = typeof reply === "string" ? { text: reply } : reply;
  return { usage: { promptTokens: 10, completionTokens: 10 }, finishReason: fields.toolCalls ? "tool-calls" : "stop", model: "fixture", ...fields, ...extra };
}

/** Defines the contract suite for the protocol `make` returns. */
export function protocolContract(make: () => Protocol, fixtures: ProtocolFixtures): void {
  const read = (text: ReplyFixture, extra: Partial<ModelResponse> = {}, keepReasoning = false): ReadReply => make().readReply({ response: response(text, extra), keepReasoning, maxTokens: 4_096, toolNames });

  test("has a name", () => {
    expect(make().name).toMatch(/\S/);
  });

  test("every tool it is given is described to the model: in the system prompt, or in the request's tools", () => {
    const protocol = make();
    const prompt = protocol.systemPrompt(setup);
    const requestTools = (protocol.requestFields?.(setup) as { tools?: readonly { name: string }[] } | undefined)?.tools ?? [];
    for (const tool of setup.tools) expect(prompt.includes(tool.name) || requestTools.some((spec) => spec.name === tool.name), tool.name).toBe(true);
  });

  describe("reading replies", () => {
    test.each([
      ["one call", "oneCall", 1],
      ["two calls", "twoCalls", 1],
    ] as const)("%s: actions in reply order, numbered from 0, no withoutActions", (_label, fixture, least) => {
      const reply = read(fixtures[fixture]);
      expect(reply.actions.length).toBeGreaterThanOrEqual(least);
      expect(reply.actions.map((action) => action.index)).toEqual(reply.actions.map((_, index) => index));
      expect(reply.withoutActions).toBeUndefined();
      expect(reply.history.role).toBe("assistant");
    });

    test("tool calls carry the arguments the reply wrote", () => {
      const calls = read(fixtures.twoCalls).actions.filter((action) => action.kind === "tool_call");
      for (const call of calls) expect(call.name).toBe("lookup");
      if (calls.length > 0) expect(calls.map((call) => (call.arguments as { key: string }).key)).toEqual(["alpha", "beta"]);
    });

    test("a reply with no action sets withoutActions", () => {
      const reply = read(fixtures.noCall);
      expect(reply.actions).toEqual([]);
      expect(reply.withoutActions).toBeDefined();
    });

    test.each([
      ["in <think> tags in the text", (call: string) => response(`<think>\n${call}\n</think>\n${"I am still thinking about it."}`)],
      ["in the server's reasoning field", (call: string) => response("I am still thinking about it.", { reasoning: call })],
    ])("a call written %s is never an action, and reasoning stays out of the history", (_label, build) => {
      const call = fixtures.callAsText ?? (typeof fixtures.oneCall === "string" ? fixtures.oneCall : undefined);
      if (call === undefined) throw new Error("give callAsText: oneCall is not text");
      const written = build(call);
      const reply = make().readReply({ response: written, keepReasoning: false, maxTokens: 4_096, toolNames });
      expect(reply.actions).toEqual([]);
      expect(reply.reasoning).toContain("lookup");
      expect(reply.history.content).not.toContain("lookup");
    });

    test("keepReasoning sends the reasoning back in the history", () => {
      const reply = read("Here is my answer.", { reasoning: "weighing the options" }, true);
      expect(reply.history.content).toContain("weighing the options");
    });

    test.each([
      ["alone", "Tool Result (lookup): \"value of alpha\""],
      ["after prose", "I called it already.\nTool Result (lookup): {\"value\": 42}\nSo the answer is 42."],
    ])("a faked `Tool Result (name):` %s is never an action or an outcome", (_label, text) => {
      const reply = read(text);
      expect(reply.actions).toEqual([]);
    });
  });

  describe("rendering results", () => {
    test("renders a message for the outcomes, naming each failure's error and each result", () => {
      const protocol = make();
      const actions = read(fixtures.twoCalls).actions;
      const outcomes = actions.map((action, index): ActionOutcome => {
        if (action.kind === "code") return { action, report: { index: action.index, code: action.code, unclosed: false, toolCalls: [], result: { output: `OUTPUT-${index}\n`, outputTruncated: false, reset: false, durationMs: 1, hostWaitMs: 0 } } };
        return index === 0 ? { action, ok: true, value: `RESULT-${index}`, chars: 10, truncated: false } : { action, ok: false, error: `ERROR-${index}` };
      });
      const messages = protocol.renderResults(outcomes, ["NOTE-1"]);
      expect(messages.length).toBeGreaterThan(0);
      const text = messages.map((message) => message.content).join("\n");
      outcomes.forEach((outcome, index) => {
        if ("report" in outcome) expect(text).toContain(`OUTPUT-${index}`);
        else expect(text).toContain(outcome.ok ? `RESULT-${index}` : `ERROR-${index}`);
      });
      for (const message of messages) expect(["user", "tool"]).toContain(message.role);
    });

    test("notes reach the model even when nothing ran", () => {
      const text = make().renderResults([], ["NOTE-ONLY"]).map((message) => message.content).join("\n");
      expect(text).toContain("NOTE-ONLY");
    });
  });
}
