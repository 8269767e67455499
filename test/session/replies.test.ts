import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { OpenAICompatibleModel, runSession, type SessionEvent, type SessionStatus } from "../../src/index.ts";
import { renderTraceHtml } from "../../src/view/index.ts";
import { startOpenAIServer, type HandlerResult, type RecordedHttpRequest } from "../support/openai-server.ts";
import { js } from "../support/scripted-replies.ts";
import { tempDir } from "../support/temp-dir.ts";

const python = (code: string) => "```python\n" + code + "\n```";
const draft = js('FINAL("a guess from the reasoning")');
// A valid block, then repetition until the token limit (seen from small local models).
const runaway = `${js('const first = "ran"; print(first)')}\n${"and so on ".repeat(20_000)}`;

/** What the model was shown in request `index`: its last message, and every assistant message before it. */
function told(requests: readonly RecordedHttpRequest[], index: number) {
  const messages = requests[index]!.body.messages ?? [];
  return { last: messages.at(-1)!.content, assistant: messages.filter((message) => message.role === "assistant").map((message) => message.content) };
}

interface Row {
  readonly label: string;
  readonly replies: readonly HandlerResult[];
  readonly stream?: boolean;
  readonly status: SessionStatus;
  readonly answer?: unknown;
  /** Checks what each later request carried. */
  readonly check?: (requests: readonly RecordedHttpRequest[], events: readonly SessionEvent[]) => void;
}

// Reply shapes as reasoning servers send them: Qwen3 and DeepSeek-R1 through llama.cpp and vLLM
// (reasoning parser on: `reasoning_content`, content empty or after it; parser off: `<think>` in the
// content, often without the opening tag because the chat template put it in the prompt), Ollama (`reasoning`).
const rows: Row[] = [
  {
    label: "<think> holding a draft FINAL: the draft never answers, the block after it does",
    replies: [`<think>Maybe ${draft}</think>\n\n${js('FINAL("real")')}`],
    status: "final",
    answer: "real",
  },
  {
    label: "no opening tag, reply ends its reasoning with </think>: only what follows runs",
    replies: [`The answer could be\n${draft}\nbut let me check.\n</think>\n\n${js("print(40 + 2)")}`, js("FINAL(42)")],
    status: "final",
    answer: 42,
    check: (requests, events) => {
      expect(told(requests, 1).last).toContain("42");
      // The history holds only what the model said; the trace keeps the reasoning.
      expect(told(requests, 1).assistant[0]).toBe(js("print(40 + 2)"));
      const call = events.find((event) => event.type === "model_call");
      expect(call).toMatchObject({ reasoning: `The answer could be\n${draft}\nbut let me check.` });
    },
  },
  {
    label: "reasoning_content with empty content: told it was only reasoning, nothing ran",
    replies: [{ text: "", reasoning: `I will answer ${draft}` }, js('FINAL("after the nudge")')],
    status: "final",
    answer: "after the nudge",
    check: (requests) => {
      expect(told(requests, 1).last).toMatch(/only reasoning .* never runs/);
      expect(told(requests, 1).assistant).toEqual([""]);
    },
  },
  {
    label: "streamed reasoning deltas (Ollama's `reasoning` field), code in the content",
    stream: true,
    replies: [{ text: js('FINAL("streamed")'), reasoning: `thinking about ${draft}`, reasoningField: "reasoning" }],
    status: "final",
    answer: "streamed",
  },
  {
    label: "streamed reasoning_content only, three times: status no_code after two nudges",
    stream: true,
    replies: [{ text: "", reasoning: draft }, { text: "", reasoning: draft }, { text: "", reasoning: draft }],
    status: "no_code",
    check: (requests) => expect(requests).toHaveLength(3),
  },
  {
    label: "```python replies: the nudge names the fence and shows a ```js block; no_code at the end",
    replies: [python("print(len(context))"), python("print(1)"), python("print(2)")],
    status: "no_code",
    check: (requests) => {
      expect(told(requests, 1).last).toContain("it had a ```python fence");
      expect(told(requests, 1).last).toContain("```js\n");
    },
  },
  {
    label: "an untagged fence, prose, code, an empty reply: each nudge names what it found; code resets the count",
    replies: ["```\nFINAL(1)\n```", "It is 1. FINAL(1)", js("print('ran')"), "", js("FINAL(1)")],
    status: "final",
    answer: 1,
    check: (requests) => {
      expect(told(requests, 1).last).toContain("without a language tag");
      expect(told(requests, 2).last).toContain("prose only");
      expect(told(requests, 3).last).toContain("ran");
      expect(told(requests, 4).last).toContain("it was empty");
    },
  },
  {
    label: "a ```ts block with types, then ```json: each nudge says why that fence does not run",
    replies: ["```ts\nconst n: number = 1;\nFINAL(n)\n```", '```json\n{"answer": 1}\n```', js("FINAL(1)")],
    status: "final",
    answer: 1,
    check: (requests) => {
      expect(told(requests, 1).last).toContain("it had a ```ts fence, which does not run: it is not plain JavaScript (types do not run)");
      expect(told(requests, 2).last).toContain("it had a ```json fence, which does not run: only ```js runs");
    },
  },
  {
    label: "a 200,000-character runaway reply cut at max_tokens: its block runs, the history keeps a clipped copy, the model is told",
    replies: [{ text: runaway, finishReason: "length", usage: { prompt_tokens: 900, completion_tokens: 4096 } }, js("FINAL(first)")],
    status: "final",
    answer: "ran",
    check: (requests, events) => {
      expect(requests[0]!.body.max_tokens).toBe(4096);
      const { last, assistant } = told(requests, 1);
      expect(last).toContain("Your reply was cut at 4,096 tokens (the limit is 4,096 tokens per reply): block 1 was run.");
      expect(last).toContain("output:\nran");
      expect(assistant[0]!.length).toBeLessThan(8_200);
      expect(assistant[0]).toContain(`left out of the history: ${runaway.length.toLocaleString("en-US")} characters in all`);
      expect(JSON.stringify(requests[1]!.body).length).toBeLessThan(20_000);
      // The trace keeps the reply whole.
      expect(events.find((event) => event.type === "model_call")).toMatchObject({ text: runaway, finishReason: "length" });
    },
  },
  {
    label: "streamed and cut inside its second block: the unclosed block does not run",
    stream: true,
    replies: [{ text: `${js("const a = 1")}\n${"```js\nFINAL('half of a tho"}`, finishReason: "length", chunks: [js("const a = 1"), "\n```js\nFINAL('half", " of a tho"] }, js("FINAL(a)")],
    status: "final",
    answer: 1,
    check: (requests) => expect(told(requests, 1).last).toMatch(/: block 1 was run\. block 2 was cut before its closing fence and was not run\./),
  },
  {
    label: "cut inside its only block: told so, not nudged (it wrote code)",
    replies: [{ text: "```js\nconst x = [1, 2,", finishReason: "length" }, { text: "```js\nconst x = [1, 2,", finishReason: "length" }, { text: "```js\nconst x = [1, 2,", finishReason: "length" }, js("FINAL(3)")],
    status: "final",
    answer: 3,
    check: (requests) => {
      expect(told(requests, 1).last).toMatch(/^Your reply was cut at \d+ tokens .*block 1 was cut before its closing fence and was not run\./);
      expect(told(requests, 3).last).not.toContain("Nothing ran: your reply had no");
    },
  },
  {
    label: "reasoning that runs into the limit: told it was cut and that it was only reasoning",
    replies: [{ text: "", reasoning: "Let me think. ".repeat(500), finishReason: "length" }, js("FINAL(4)")],
    status: "final",
    answer: 4,
    check: (requests) => {
      expect(told(requests, 1).last).toContain("no ```js block was complete, so nothing ran.");
      expect(told(requests, 1).last).toContain("it was only reasoning");
    },
  },
];

describe("replies against a loopback OpenAI-compatible server", () => {
  test.for(rows)("$label", async (row) => {
    await using server = await startOpenAIServer(row.replies);
    const events: SessionEvent[] = [];
    const model = new OpenAICompatibleModel({ baseURL: server.url, model: "reasoner", maxRetries: 0, stream: row.stream === true });
    const result = await runSession({ question: "What is the answer?", context: "abc", model, onEvent: (event) => events.push(event) });
    expect(result.status).toBe(row.status);
    if (row.answer !== undefined) expect(result.answer).toEqual(row.answer);
    else expect(result.answer).toBeUndefined();
    // Nothing from reasoning ever ran.
    expect(events.filter((event) => event.type === "code_block").map((event) => event.code)).not.toContain('FINAL("a guess from the reasoning")');
    row.check?.(server.requests, events);
  });

  test("maxNudges sets how many replies without code are nudged before no_code", async () => {
    await using server = await startOpenAIServer(["", "", ""]);
    const model = new OpenAICompatibleModel({ baseURL: server.url, model: "m", maxRetries: 0 });
    const result = await runSession({ question: "q", model, maxNudges: 1 });
    expect(result).toMatchObject({ status: "no_code", iterations: 2 });
    expect(result.error).toBe("the model wrote no runnable code in 2 replies in a row (the last one: it was empty)");
  });

  test("keepReasoning sends the reasoning back in <think> tags; the trace and the view keep it either way", async () => {
    await using server = await startOpenAIServer([{ text: js("print(1)"), reasoning: "first I print" }, js("FINAL(1)")]);
    const tracePath = join(tempDir("rlmkit-replies-"), "trace.jsonl");
    const model = new OpenAICompatibleModel({ baseURL: server.url, model: "m", maxRetries: 0 });
    await runSession({ question: "q", model, keepReasoning: true, tracePath });
    expect(told(server.requests, 1).assistant[0]).toBe(`<think>\nfirst I print\n</think>\n\n${js("print(1)")}`);
    const trace = readFileSync(tracePath, "utf8");
    expect(trace).toContain('"reasoning":"first I print"');
    const html = renderTraceHtml(trace.trim().split("\n").map((line) => JSON.parse(line)));
    expect(html).toContain("Reasoning (13 characters; never run)");
    expect(html).toContain("first I print");
  });
});
