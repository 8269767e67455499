import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { OpenAICompatibleModel, runSession, type SessionEvent } from "../../src/index.ts";
import { startOpenAIServer, type HandlerResult } from "../support/openai-server.ts";
import { tempDir } from "../support/temp-dir.ts";

const FINAL_REPLY = '```js\nFINAL("ok")\n```';
/** A reply that never comes: the client's time limit must end the attempt. */
const NEVER: HandlerResult = { hang: true };

interface FaultRow {
  readonly label: string;
  readonly stream: boolean;
  /** The server's answers, one per request, in order. */
  readonly replies: readonly HandlerResult[];
  /** How the session ends: answered after the retries, or a clean status. */
  readonly status: "final" | "error";
  /** Requests the server sees. */
  readonly requests: number;
  /** Waits before each retry, when they are known exactly. */
  readonly delays?: readonly number[];
  /** Words the error must contain, for rows that end in an error. */
  readonly error?: RegExp;
  readonly usageEstimated?: boolean;
  /** The client's request time-out: short only for rows about a server that stops answering, so a busy machine cannot turn another row into a time-out. */
  readonly timeoutMs?: number;
}

const rows: readonly FaultRow[] = [
  { label: "429 with Retry-After: 2 waits the 2 s the server asked for, then retries", stream: false, replies: [{ status: 429, headers: { "retry-after": "2" } }, FINAL_REPLY], status: "final", requests: 2, delays: [2_000] },
  { label: "429 with retry-after-ms waits exactly that", stream: true, replies: [{ status: 429, headers: { "retry-after-ms": "1234" } }, FINAL_REPLY], status: "final", requests: 2, delays: [1_234] },
  { label: "429 without Retry-After backs off and retries", stream: false, replies: [{ status: 429 }, FINAL_REPLY], status: "final", requests: 2 },
  { label: "500 is retried", stream: false, replies: [{ status: 500 }, FINAL_REPLY], status: "final", requests: 2 },
  { label: "502 is retried", stream: true, replies: [{ status: 502, body: "<html>Bad Gateway</html>", headers: { "content-type": "text/html" } }, FINAL_REPLY], status: "final", requests: 2 },
  { label: "503 with Retry-After is retried", stream: false, replies: [{ status: 503, headers: { "retry-after": "1" } }, FINAL_REPLY], status: "final", requests: 2, delays: [1_000] },
  { label: "a connection reset before any answer is retried", stream: false, replies: [{ drop: true }, FINAL_REPLY], status: "final", requests: 2 },
  { label: "a connection reset while streaming is retried", stream: true, replies: [{ drop: true }, FINAL_REPLY], status: "final", requests: 2 },
  { label: "no answer within the time limit is retried", stream: false, replies: [NEVER, FINAL_REPLY], status: "final", requests: 2, timeoutMs: 400 },
  { label: "a stream that stalls mid-message is retried", stream: true, replies: [{ text: FINAL_REPLY, stallAfterChunks: 1 }, FINAL_REPLY], status: "final", requests: 2, timeoutMs: 400 },
  { label: "a stream cut mid-message is retried, never taken for the whole reply", stream: true, replies: [{ text: FINAL_REPLY, cutAfterChunks: 1 }, FINAL_REPLY], status: "final", requests: 2 },
  { label: "malformed SSE ends in a clean error that names it (the server is not speaking the protocol)", stream: true, replies: [{ rawStream: 'data: {"id": "chatcmpl-1", "choices": [{"delta": {"content": "```js\\nFIN\n\n' }, FINAL_REPLY], status: "error", requests: 1, error: /not a chat completion: .*malformed server-sent event/ },
  { label: "a reply without usage is estimated (plain)", stream: false, replies: [{ text: FINAL_REPLY, usage: null }], status: "final", requests: 1, usageEstimated: true },
  { label: "a reply without usage is estimated (streamed)", stream: true, replies: [{ text: FINAL_REPLY, usage: null }], status: "final", requests: 1, usageEstimated: true },
  { label: "503 on every attempt ends in an error status after the retries", stream: false, replies: [{ status: 503 }, { status: 503 }, { status: 503 }], status: "error", requests: 3, error: /503/ },
  { label: "400 is not retried: an error status at once", stream: false, replies: [{ status: 400, body: { error: { message: "bad request: unknown field" } } }], status: "error", requests: 1, error: /400.*unknown field/ },
  { label: "a 200 without choices is a clean error", stream: false, replies: [{ status: 200, body: { id: "x", object: "chat.completion", choices: [] } }], status: "error", requests: 1, error: /no choices/ },
];

describe("model client faults, through a session", () => {
  test.each(rows)("$label", async (row) => {
    await using server = await startOpenAIServer(row.replies);
    const delays: number[] = [];
    const model = new OpenAICompatibleModel({
      baseURL: server.url,
      model: "fault-model",
      stream: row.stream,
      maxRetries: 2,
      timeoutMs: row.timeoutMs ?? 10_000,
      // Waits are recorded, not slept, so the table runs fast; jitter is fixed.
      _internal: { sleep: async (milliseconds) => void delays.push(milliseconds), random: () => 0.5 },
    });
    const tracePath = join(tempDir("rlmkit-faults-"), "trace.jsonl");
    const result = await runSession({ question: "q", model, tracePath, subcalls: false });

    expect(result.status).toBe(row.status);
    if (row.status === "final") expect(result.answer).toBe("ok");
    if (row.error) expect(result.error).toMatch(row.error);
    expect(server.requests).toHaveLength(row.requests);
    expect(delays).toHaveLength(row.requests - 1);
    if (row.delays) expect(delays).toEqual(row.delays);
    for (const delay of delays) expect(delay).toBeGreaterThan(0);

    // The trace is whole: every line is JSON, from session_start to a session_end with the same status.
    const events = readFileSync(tracePath, "utf8").trim().split("\n").map((line) => JSON.parse(line) as SessionEvent);
    expect(events[0]?.type).toBe("session_start");
    expect(events.at(-1)).toMatchObject({ type: "session_end", status: row.status });
    const calls = events.filter((event) => event.type === "model_call");
    expect(calls).toHaveLength(row.status === "final" ? 1 : 0);
    if (row.usageEstimated !== undefined) expect(calls[0]).toMatchObject({ usageEstimated: row.usageEstimated });
    if (row.status === "error") expect(events.some((event) => event.type === "error" && /model call failed/.test(event.message))).toBe(true);
  });
});
