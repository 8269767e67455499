/**
 * The ModelClient contract: what every client must do, one suite run against each
 * (`openai-compatible-model.test.ts` against the loopback server, `scripted-model.test.ts`,
 * `replay-model.test.ts`). Only the public seam is used: a client is made to answer a
 * script of replies, and the suite checks what `complete` and `stream` give back.
 */
import { afterEach, describe, expect, test } from "vitest";
import type { ChatMessage, ModelClient, ModelProgress, ModelResponse, ModelStreamPart, ToolSpec } from "../../src/index.ts";

/** A tool call a scripted reply holds; `chunks` cut its arguments for streaming, where the client streams from a script. */
export interface ContractToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  readonly chunks?: readonly string[];
}

/** One reply of the script, in neutral form; each subject turns it into what its client answers from. */
export interface ContractReply {
  readonly text: string;
  readonly reasoning?: string;
  readonly toolCalls?: readonly ContractToolCall[];
  /** The text's deltas, where the client streams from a script. */
  readonly chunks?: readonly string[];
}

/** A client under test. */
export interface ModelClientSubject {
  /** A fresh client that answers `replies` in order. */
  create(replies: readonly ContractReply[]): Promise<ModelClient>;
  /** Frees what `create` made (servers); after each test. */
  cleanup?(): Promise<void>;
}

const question: ChatMessage[] = [
  { role: "system", content: "Answer with the tools." },
  { role: "user", content: "Where is retry decided?" },
];

/** A history in which the model called two tools in parallel and got both results. */
const historyWithToolResults: ChatMessage[] = [
  ...question,
  {
    role: "assistant",
    content: "",
    toolCalls: [
      { id: "call_a", name: "nav_search", arguments: '{"query":"retry"}' },
      { id: "call_b", name: "nav_ls", arguments: "{}" },
    ],
  },
  { role: "tool", toolCallId: "call_a", name: "nav_search", content: '{"matches":[{"path":"src/retry.ts","line":3}]}' },
  { role: "tool", toolCallId: "call_b", name: "nav_ls", content: '{"entries":["src/"]}' },
];

// Arguments cut where a naive joiner breaks: inside a key, right after a backslash, inside a
// \u escape and between the halves of a surrogate pair (é and 😀 written as escapes and as is).
const awkwardArguments = '{"query":"a \\"quoted\\" \\u00e9 name 😀","glob":"src/**"}';
const awkwardChunks = ['{"qu', 'ery":"a \\', '"quoted\\" \\u00', "e9 name \ud83d", '\ude00","glob"', ':"src/**"}'];

/** Labelled scripts: each row is one reply and what every client must give back for it. */
const replies: readonly { readonly label: string; readonly reply: ContractReply }[] = [
  { label: "plain text", reply: { text: "The retry policy is in src/retry.ts.", chunks: ["The retry ", "policy is in ", "src/retry.ts."] } },
  { label: "one tool call, no text", reply: { text: "", toolCalls: [{ id: "call_1", name: "nav_search", arguments: '{"query":"retry"}', chunks: ['{"query"', ':"retry"}'] }] } },
  {
    label: "parallel calls with reasoning and text",
    reply: {
      text: "Looking in two places.",
      reasoning: "The user wants retries; search and list.",
      toolCalls: [
        { id: "call_1", name: "nav_search", arguments: '{"query":"retry","limit":5}', chunks: ['{"query":"re', 'try","li', 'mit":5}'] },
        { id: "call_2", name: "nav_ls", arguments: '{"path":"src"}' },
        { id: "call_3", name: "nav_outline", arguments: '{"path":"src/retry.ts"}', chunks: ["", '{"path":"src/retry.ts"}'] },
      ],
    },
  },
  { label: "arguments cut at awkward places", reply: { text: "", toolCalls: [{ id: "call_x", name: "nav_search", arguments: awkwardArguments, chunks: awkwardChunks }] } },
  { label: "a call with empty arguments", reply: { text: "", toolCalls: [{ id: "call_e", name: "nav_info", arguments: "" }] } },
];

async function collect(parts: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const collected: ModelStreamPart[] = [];
  for await (const part of parts) collected.push(part);
  return collected;
}

function expectResponseOf(response: ModelResponse, reply: ContractReply): void {
  expect(response.text).toBe(reply.text);
  expect(response.reasoning).toBe(reply.reasoning);
  expect(response.toolCalls?.map(({ id, name, arguments: text }) => ({ id, name, arguments: text }))).toEqual(reply.toolCalls?.map(({ id, name, arguments: text }) => ({ id, name, arguments: text })));
  expect(response.finishReason).toBe(reply.toolCalls ? "tool-calls" : "stop");
  for (const count of [response.usage.promptTokens, response.usage.completionTokens]) expect(Number.isInteger(count) && count >= 0).toBe(true);
  expect(response.model.length).toBeGreaterThan(0);
}

/** Defines the whole contract suite for the clients `subject` makes. */
export function modelClientContract(subject: ModelClientSubject): void {
  afterEach(async () => {
    await subject.cleanup?.();
  });

  describe("complete", () => {
    test.for(replies)("gives back the reply: $label", async ({ reply }) => {
      const model = await subject.create([reply]);
      expect(model.modelId.length).toBeGreaterThan(0);
      expectResponseOf(await model.complete({ messages: question, tools: toolSpecs }), reply);
    });

    test("takes a history with tool calls and their results, and answers it", async () => {
      const model = await subject.create([{ text: "It is decided in src/retry.ts." }]);
      const response = await model.complete({ messages: historyWithToolResults, tools: toolSpecs, toolChoice: "auto" });
      expect(response.text).toBe("It is decided in src/retry.ts.");
      expect(response.toolCalls).toBeUndefined();
    });

    test("answers several requests in order", async () => {
      const model = await subject.create([replies[1].reply, { text: "done" }]);
      expect((await model.complete({ messages: question, tools: toolSpecs })).toolCalls?.[0].name).toBe("nav_search");
      expect((await model.complete({ messages: historyWithToolResults, tools: toolSpecs })).text).toBe("done");
    });

    test("progress reports are optional, well-formed when sent, and a listener that throws never fails the call", async () => {
      const model = await subject.create([{ text: "pong" }]);
      const reports: ModelProgress[] = [];
      const response = await model.complete({
        messages: question,
        onProgress: (report) => {
          reports.push(report);
          throw new Error("listener bug");
        },
      });
      expect(response.text).toBe("pong");
      for (const report of reports) {
        expect(["attempt", "retry", "output"]).toContain(report.kind);
        expect(Number.isInteger(report.attempt) && report.attempt >= 1).toBe(true);
      }
    });

    test("rejects a request whose signal is already aborted", async () => {
      const model = await subject.create([{ text: "never" }]);
      await expect(model.complete({ messages: question, signal: AbortSignal.abort(new Error("cancelled")) })).rejects.toThrow();
    });
  });

  describe("stream", () => {
    test.for(replies)("yields deltas that join to the finish part's response, which is complete's: $label", async ({ reply }) => {
      const model = await subject.create([reply, reply]);
      if (!model.stream) return;
      const parts = await collect(model.stream({ messages: question, tools: toolSpecs }));

      expect(parts.filter((part) => part.type === "finish")).toHaveLength(1);
      const last = parts.at(-1);
      if (last?.type !== "finish") throw new Error(`the last part is ${last?.type}, not finish`);
      expectResponseOf(last.response, reply);
      expect(last.response).toEqual(await model.complete({ messages: question, tools: toolSpecs }));

      const text = parts.flatMap((part) => (part.type === "text-delta" ? [part.text] : [])).join("");
      const reasoning = parts.flatMap((part) => (part.type === "reasoning-delta" ? [part.text] : [])).join("");
      expect(text).toBe(reply.text);
      expect(reasoning || undefined).toBe(reply.reasoning);

      const calls: { id?: string; name?: string; arguments: string }[] = [];
      for (const part of parts) {
        if (part.type !== "tool-call-delta") continue;
        // A call's first delta names it; indexes count the calls in the order they start.
        if (part.index === calls.length) calls.push({ id: part.id, name: part.name, arguments: "" });
        const call = calls[part.index];
        expect(call, `delta for call ${part.index} before calls ${calls.length}..${part.index - 1} started`).toBeDefined();
        if (part.id !== undefined) expect(part.id).toBe(call.id);
        call.arguments += part.argumentsDelta;
      }
      expect(calls).toEqual((reply.toolCalls ?? []).map(({ id, name, arguments: text }) => ({ id, name, arguments: text })));
    });

    test("rejects a request whose signal is already aborted", async () => {
      const model = await subject.create([{ text: "never" }]);
      if (!model.stream) return;
      await expect(collect(model.stream({ messages: question, signal: AbortSignal.abort(new Error("cancelled")) }))).rejects.toThrow();
    });
  });
}

/** The tools every request of the suite offers. */
export const toolSpecs: ToolSpec[] = [
  { name: "nav_search", description: "Searches the repository.", parameters: { type: "object", properties: { query: { type: "string" }, limit: { type: "number" } }, required: ["query"] } },
  { name: "nav_ls", description: "Lists a folder.", parameters: { type: "object", properties: { path: { type: "string" } } } },
  { name: "nav_outline", description: "Outlines a file.", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
  { name: "nav_info", description: "Describes the repository.", parameters: { type: "object", properties: {} } },
];
