import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback OpenAI-compatible server for tests: a real `node:http` server on
 * 127.0.0.1 (random port) that answers `POST /v1/chat/completions`, both as plain
 * JSON and as SSE streaming (`data: {...}` chunks, a usage chunk when the request
 * asks for `stream_options.include_usage`, then `data: [DONE]`).
 *
 * Each request is answered by a handler (or the next item of a list of replies):
 *
 * - a string: the assistant's reply text;
 * - a {@link ScriptedCompletion} (`{ text, usage?, finishReason?, model?, chunks?, toolCalls? }`):
 *   the reply with control over usage, finish reason, model name, stream chunks and
 *   tool calls (`message.tool_calls`; streamed as per-index argument deltas);
 * - a {@link ScriptedHttpResponse} (`{ status, body?, headers? }`): a raw HTTP reply,
 *   e.g. `{ status: 429, headers: { "retry-after": "2" } }`;
 * - `{ drop: true }`: the connection is destroyed without an answer (a network failure);
 * - `{ hang: true }`: no answer at all until `close()` (a server that never replies);
 * - `{ rawStream }`: a 200 event stream carrying exactly this text, then the end (malformed SSE);
 * - a thrown error or rejected promise: a 500 with `{ error: { message } }`.
 *
 * A handler may return a promise that settles late (or never) to test timeouts;
 * `close()` cuts open connections so it never waits on them.
 *
 * @example
 * await using server = await startOpenAIServer([{ status: 500 }, "hello"]);
 * const model = new OpenAICompatibleModel({ baseURL: server.url, model: "test-model" });
 * await model.complete({ messages: [{ role: "user", content: "hi" }] }); // text "hello"
 * server.requests.length; // 2
 */
export async function startOpenAIServer(
  handlerOrReplies: ChatCompletionHandler | readonly HandlerResult[],
): Promise<OpenAITestServer> {
  const requests: RecordedHttpRequest[] = [];
  const handler = typeof handlerOrReplies === "function" ? handlerOrReplies : repliesInOrder(handlerOrReplies);

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent && !response.destroyed) {
        sendJson(response, 500, { error: { message: `openai-server: ${String(error)}` } });
      }
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const rawBody = await readBody(request);
    const path = (request.url ?? "/").split("?")[0];
    let body: ChatCompletionRequestBody;
    try {
      body = rawBody.length > 0 ? JSON.parse(rawBody) : {};
    } catch {
      sendJson(response, 400, { error: { message: "openai-server: request body is not JSON" } });
      return;
    }
    const index = requests.length;
    requests.push({ method: request.method ?? "", path, headers: request.headers, body });

    if (request.method !== "POST" || path !== "/v1/chat/completions") {
      sendJson(response, 404, { error: { message: `openai-server: no route for ${request.method} ${path}` } });
      return;
    }

    let result: HandlerResult;
    try {
      result = await handler(body, { index, headers: request.headers });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      sendJson(response, 500, { error: { message, type: "server_error" } });
      return;
    }
    if (response.destroyed) return;

    if (typeof result === "object" && "drop" in result) {
      response.socket?.destroy();
      return;
    }
    if (typeof result === "object" && "hang" in result) return;
    if (typeof result === "object" && "rawStream" in result) {
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      response.end(result.rawStream);
      return;
    }
    if (typeof result === "object" && "status" in result) {
      const { status, body: replyBody, headers = {} } = result;
      const text = replyBody === undefined ? JSON.stringify({ error: { message: `scripted ${status}` } }) : typeof replyBody === "string" ? replyBody : JSON.stringify(replyBody);
      response.writeHead(status, { "content-type": "application/json", ...headers });
      response.end(text);
      return;
    }
    const completion: ScriptedCompletion = typeof result === "string" ? { text: result } : result;
    if (body.stream === true) {
      sendStream(response, body, completion);
    } else {
      sendJson(response, 200, completionBody(body, completion));
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closed;
  };

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** A running loopback server. */
export interface OpenAITestServer {
  /** Base URL to hand to a client, e.g. `http://127.0.0.1:54321/v1`. */
  readonly url: string;
  readonly port: number;
  /** Every request received, in arrival order (including ones that got an error reply). */
  readonly requests: readonly RecordedHttpRequest[];
  /** Stops the server, cutting any connection still open. Safe to call twice. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** One request as the server saw it. */
export interface RecordedHttpRequest {
  readonly method: string;
  /** Path without query, e.g. `/v1/chat/completions`. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body. */
  readonly body: ChatCompletionRequestBody;
}

/** The parts of a chat completion request body the server looks at; the rest is kept as sent. */
export interface ChatCompletionRequestBody {
  readonly model?: string;
  readonly messages?: readonly RequestMessage[];
  readonly tools?: readonly { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  readonly tool_choice?: unknown;
  readonly stop?: readonly string[];
  readonly stream?: boolean;
  readonly stream_options?: { include_usage?: boolean };
  readonly max_tokens?: number;
  readonly max_completion_tokens?: number;
  readonly temperature?: number;
  readonly [key: string]: unknown;
}

/** A message of a request as sent: assistant messages may carry `tool_calls`, tool messages `tool_call_id`. */
export interface RequestMessage {
  readonly role: string;
  readonly content: string | null;
  readonly tool_calls?: readonly { id: string; type: string; function: { name: string; arguments: string }; [extra: string]: unknown }[];
  readonly tool_call_id?: string;
  readonly name?: string;
}

/** A tool call the server answers with. */
export interface ScriptedServerToolCall {
  /** Default `call_<position>`. */
  readonly id?: string;
  readonly name: string;
  /** The arguments' raw text. */
  readonly arguments: string;
  /** Streaming only: the arguments' deltas (default: the whole text in one delta after the one naming the call). */
  readonly chunks?: readonly string[];
  /** Fields sent on the call beside `id`, `type` and `function` (Gemini: `{ extra_content: { google: { thought_signature } } }`), on its first delta when streaming. */
  readonly extra?: Record<string, unknown>;
}

/** A successful completion, with control over what the server reports. */
export interface ScriptedCompletion {
  readonly text: string;
  /**
   * Usage to report. Default: whitespace-separated word counts of the request's
   * messages and of `text`. `null` reports no usage at all (neither in JSON nor in the stream).
   */
  readonly usage?: { prompt_tokens: number; completion_tokens: number } | null;
  /** Raw finish reason; default `"stop"`. `null` sends none. */
  readonly finishReason?: string | null;
  /** Model name in the reply; default the request's `model`. */
  readonly model?: string;
  /** Streaming only: the content deltas to send; default `text` split after each space. */
  readonly chunks?: readonly string[];
  /**
   * Reasoning sent apart from the text, as reasoning servers do: in
   * `message.reasoning_content` (llama.cpp, vLLM, DeepSeek) or `message.reasoning`
   * (Ollama) — see `reasoningField` — and, when streaming, as reasoning deltas before the content deltas.
   */
  readonly reasoning?: string;
  /** The field that carries `reasoning`; default `"reasoning_content"`. */
  readonly reasoningField?: "reasoning_content" | "reasoning";
  /** Streaming only: send this many content deltas, then hold the connection open without finishing (for timeout tests). */
  readonly stallAfterChunks?: number;
  /** Streaming only: send this many deltas (reasoning, content and tool-call deltas alike), then cut the connection mid-message (a proxy or server dying). */
  readonly cutAfterChunks?: number;
  /** Streaming only: reasoning deltas (`delta.reasoning_content`, as llama.cpp and vLLM send them) before the content deltas. */
  readonly reasoningChunks?: readonly string[];
  /** Streaming only: wait this long before each delta after the first (a slow model writing). */
  readonly chunkDelayMs?: number;
  /**
   * Tool calls in the reply (`message.tool_calls`, with `content: null` when `text` is
   * empty); finish reason default `"tool_calls"`. Streamed after the content deltas: per
   * call a delta with index, id, type and name, then its argument deltas.
   */
  readonly toolCalls?: readonly ScriptedServerToolCall[];
  /** Streaming only: send the calls' argument deltas interleaved (call 0, call 1, call 0, …) rather than one call after the other. */
  readonly interleaveToolCalls?: boolean;
  /** Streaming only: give every call index 0, each with its own id (as some servers do for parallel calls). */
  readonly everyCallAtIndexZero?: boolean;
}

/** A raw HTTP reply, for error statuses. `body` objects are sent as JSON; default `{ error: { message: "scripted <status>" } }`. */
export interface ScriptedHttpResponse {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

/** What a handler returns for one request. */
export type HandlerResult = string | ScriptedCompletion | ScriptedHttpResponse | { readonly drop: true } | { readonly hang: true } | { readonly rawStream: string };

/** Answers one chat completion request; `index` counts all requests received, from 0. */
export type ChatCompletionHandler = (
  body: ChatCompletionRequestBody,
  request: { readonly index: number; readonly headers: IncomingHttpHeaders },
) => HandlerResult | Promise<HandlerResult>;

function repliesInOrder(replies: readonly HandlerResult[]): ChatCompletionHandler {
  let next = 0;
  return () => {
    if (next >= replies.length) {
      // 400 so that a client does not retry: the test script is wrong, not the server busy.
      return { status: 400, body: { error: { message: `openai-server: all ${replies.length} scripted replies were used` } } };
    }
    return replies[next++];
  };
}

function completionBody(body: ChatCompletionRequestBody, completion: ScriptedCompletion): object {
  const usage = usageFor(body, completion);
  return {
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 0,
    model: completion.model ?? body.model ?? "unknown",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: completion.toolCalls && completion.text === "" ? null : completion.text,
          ...(completion.reasoning !== undefined ? { [completion.reasoningField ?? "reasoning_content"]: completion.reasoning } : {}),
          ...(completion.toolCalls ? { tool_calls: completion.toolCalls.map((call, index) => ({ ...call.extra, id: callId(call, index), type: "function", function: { name: call.name, arguments: call.arguments } })) } : {}),
        },
        finish_reason: finishReasonOf(completion),
        logprobs: null,
      },
    ],
    ...(usage ? { usage } : {}),
  };
}

function sendStream(response: ServerResponse, body: ChatCompletionRequestBody, completion: ScriptedCompletion): void {
  const model = completion.model ?? body.model ?? "unknown";
  const chunk = (choices: object[], extra: object = {}) => ({ id: "chatcmpl-test", object: "chat.completion.chunk", created: 0, model, choices, ...extra });
  const deltas = completion.chunks ?? splitAfterSpaces(completion.text);
  const events: object[] = [chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }])];
  for (const reasoning_content of completion.reasoningChunks ?? []) events.push(chunk([{ index: 0, delta: { reasoning_content }, finish_reason: null }]));
  // Reasoning streams first, in its own field, with empty content (as llama.cpp and vLLM send it).
  for (const reasoning of splitAfterSpaces(completion.reasoning ?? "")) events.push(chunk([{ index: 0, delta: { content: null, [completion.reasoningField ?? "reasoning_content"]: reasoning }, finish_reason: null }]));
  for (const content of deltas) events.push(chunk([{ index: 0, delta: { content }, finish_reason: null }]));
  for (const tool_calls of toolCallDeltas(completion)) events.push(chunk([{ index: 0, delta: { tool_calls }, finish_reason: null }]));
  events.push(chunk([{ index: 0, delta: {}, finish_reason: finishReasonOf(completion) }]));
  const usage = usageFor(body, completion);
  if (usage && body.stream_options?.include_usage === true) events.push(chunk([], { usage }));

  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  if (completion.stallAfterChunks !== undefined) {
    // The role chunk plus the first `stallAfterChunks` deltas, then silence until close().
    for (const event of events.slice(0, 1 + completion.stallAfterChunks)) response.write(`data: ${JSON.stringify(event)}\n\n`);
    return;
  }
  if (completion.cutAfterChunks !== undefined) {
    // The role chunk plus the first `cutAfterChunks` deltas, then the connection is cut once they are out.
    const sent = events.slice(0, 1 + completion.cutAfterChunks).map((event) => `data: ${JSON.stringify(event)}\n\n`).join("");
    response.write(sent, () => response.socket?.destroy());
    return;
  }
  if (completion.chunkDelayMs === undefined) {
    for (const event of events) response.write(`data: ${JSON.stringify(event)}\n\n`);
    response.end("data: [DONE]\n\n");
    return;
  }
  void (async () => {
    for (const [index, event] of events.entries()) {
      if (index > 1) await new Promise((resolve) => setTimeout(resolve, completion.chunkDelayMs));
      if (response.destroyed) return;
      response.write(`data: ${JSON.stringify(event)}\n\n`);
    }
    response.end("data: [DONE]\n\n");
  })();
}

function callId(call: ScriptedServerToolCall, index: number): string {
  return call.id ?? `call_${index}`;
}

function finishReasonOf(completion: ScriptedCompletion): string | null {
  if (completion.finishReason !== undefined) return completion.finishReason;
  return completion.toolCalls && completion.toolCalls.length > 0 ? "tool_calls" : "stop";
}

/** The `delta.tool_calls` of each streamed chunk: per call, one delta naming it, then its argument deltas (in turn, or interleaved). */
function toolCallDeltas(completion: ScriptedCompletion): object[][] {
  const perCall = (completion.toolCalls ?? []).map((call, position) => {
    const index = completion.everyCallAtIndexZero ? 0 : position;
    const opening = { ...call.extra, index, id: callId(call, position), type: "function", function: { name: call.name, arguments: "" } };
    return [opening, ...(call.chunks ?? [call.arguments]).map((part) => ({ index, function: { arguments: part } }))];
  });
  if (!completion.interleaveToolCalls) return perCall.flat().map((delta) => [delta]);
  const deltas: object[][] = [];
  for (let step = 0; perCall.some((call) => step < call.length); step++) {
    for (const call of perCall) if (step < call.length) deltas.push([call[step]]);
  }
  return deltas;
}

function splitAfterSpaces(text: string): string[] {
  return (text.match(/\S*\s*/g) ?? []).filter((part) => part.length > 0);
}

function usageFor(body: ChatCompletionRequestBody, completion: ScriptedCompletion) {
  if (completion.usage === null) return undefined;
  const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
  const usage = completion.usage ?? {
    prompt_tokens: (body.messages ?? []).reduce((sum, message) => sum + words(message.content ?? ""), 0),
    completion_tokens: words(completion.text) + (completion.toolCalls ?? []).reduce((sum, call) => sum + 1 + words(call.arguments), 0),
  };
  return { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(value));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}
