import { createServer } from "node:net";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  ModelCallError,
  ModelConfigurationError,
  OpenAICompatibleModel,
  PLACEHOLDER_API_KEY,
  type ChatMessage,
  type ModelProgress,
  type ModelRetry,
  type OpenAICompatibleModelOptions,
} from "../../src/model/index.ts";
import { startOpenAIServer, type ChatCompletionHandler, type HandlerResult, type OpenAITestServer } from "../support/openai-server.ts";

const messages: ChatMessage[] = [
  { role: "system", content: "You answer briefly." },
  { role: "user", content: "What is in the box?" },
];

const servers: OpenAITestServer[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handler: ChatCompletionHandler | readonly HandlerResult[]): Promise<OpenAITestServer> {
  const server = await startOpenAIServer(handler);
  servers.push(server);
  return server;
}

/** A model pointed at `server`, with waits recorded instead of slept. */
function modelFor(server: OpenAITestServer, options: OpenAICompatibleModelOptions = {}) {
  const sleeps: number[] = [];
  const retries: ModelRetry[] = [];
  const model = new OpenAICompatibleModel({
    baseURL: server.url,
    model: "test-model",
    onRetry: (retry) => retries.push(retry),
    _internal: {
      sleep: async (milliseconds) => {
        sleeps.push(milliseconds);
      },
      random: () => 0.5,
    },
    ...options,
  });
  return { model, sleeps, retries };
}

async function failure(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
}

/** A port on 127.0.0.1 with nothing listening: bound once by the OS, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.for([
  { mode: "non-streaming", stream: false },
  { mode: "streaming", stream: true },
])("OpenAICompatibleModel, $mode", ({ stream }) => {
  test("returns the reply text, the server's usage, finish reason and model", async () => {
    const server = await serve([{ text: "A small brass key.", usage: { prompt_tokens: 21, completion_tokens: 6 }, model: "test-model-2025" }]);
    const { model } = modelFor(server, { stream });
    const response = await model.complete({ messages, maxTokens: 64, temperature: 0.2 });

    expect(response).toEqual({
      text: "A small brass key.",
      usage: { promptTokens: 21, completionTokens: 6 },
      finishReason: "stop",
      rawFinishReason: "stop",
      model: "test-model-2025",
    });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.body).toMatchObject({ model: "test-model", messages, max_tokens: 64, temperature: 0.2 });
    expect(request.body.stream ?? false).toBe(stream);
    expect(request.headers.authorization).toBe(`Bearer ${PLACEHOLDER_API_KEY}`);
  });

  test("maps a 'length' finish reason and keeps the raw one", async () => {
    const server = await serve([{ text: "cut", finishReason: "length" }]);
    const { model } = modelFor(server, { stream });
    const response = await model.complete({ messages });
    expect(response.finishReason).toBe("length");
    expect(response.rawFinishReason).toBe("length");
  });

  test("estimates usage when the server reports none", async () => {
    const server = await serve([{ text: "12345678", usage: null }]);
    const { model } = modelFor(server, { stream });
    const response = await model.complete({ messages: [{ role: "user", content: "abcdefgh" }] });
    expect(response.usage).toEqual({ promptTokens: 2, completionTokens: 2 });
    expect(response.usageEstimated).toBe(true);
  });

  test("retries a 429 (waiting its Retry-After) and a 500, then succeeds", async () => {
    const server = await serve([{ status: 429, headers: { "retry-after": "2" } }, { status: 500, body: { error: { message: "overloaded" } } }, "finally"]);
    const { model, sleeps, retries } = modelFor(server, { stream, retryBaseDelayMs: 100 });
    const response = await model.complete({ messages });

    expect(response.text).toBe("finally");
    expect(server.requests).toHaveLength(3);
    // Retry-After: 2 → 2000 ms; then backoff 100 * 2^1 = 200 ms, times the jitter factor 0.75.
    expect(sleeps).toEqual([2000, 150]);
    expect(retries.map(({ attempt, error }) => [attempt, error.status, error.retryable])).toEqual([
      [1, 429, true],
      [2, 500, true],
    ]);
  });
});

describe("OpenAICompatibleModel streaming", () => {
  test("asks for usage in the stream and joins the content deltas", async () => {
    const server = await serve([{ text: "unused", chunks: ["The ", "answer", " is ", "42."], usage: { prompt_tokens: 9, completion_tokens: 4 } }]);
    const { model } = modelFor(server, { stream: true });
    const response = await model.complete({ messages });
    expect(response.text).toBe("The answer is 42.");
    expect(response.usage).toEqual({ promptTokens: 9, completionTokens: 4 });
    expect(server.requests[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  test("the timeout covers the whole stream, not only the response headers", async () => {
    const server = await serve(() => ({ text: "never finished answer", stallAfterChunks: 1 }));
    const { model } = modelFor(server, { stream: true, timeoutMs: 200, maxRetries: 0 });
    const error = await failure(model.complete({ messages }));
    expect(error).toMatchObject({ failure: "timeout", attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });
});

describe("OpenAICompatibleModel failures", () => {
  test.for([
    { label: "400 bad request", status: 400, message: "The model server at <url> rejected the request for model 'test-model' (400: messages must not be empty)." },
    { label: "401 bad key", status: 401, message: "The model server at <url> refused the API key (401: messages must not be empty). Check --api-key / OPENAI_API_KEY." },
    { label: "404 unknown model", status: 404, message: "The model server at <url> answered 404 for model 'test-model' (messages must not be empty). Check --model / RLMKIT_MODEL and --base-url." },
    { label: "422 unprocessable", status: 422, message: "The model server at <url> rejected the request for model 'test-model' (422: messages must not be empty)." },
  ])("does not retry $label", async ({ status, message }) => {
    const server = await serve([{ status, body: { error: { message: "messages must not be empty" } } }, "never sent"]);
    const { model, retries } = modelFor(server);
    const error = await failure(model.complete({ messages }));

    expect(server.requests).toHaveLength(1);
    expect(retries).toEqual([]);
    expect(error).toMatchObject({ name: "ModelCallError", failure: "status", status, retryable: false, attempts: 1 });
    expect(error.message.replace(server.url, "<url>")).toBe(message);
  });

  test("gives up after maxRetries retries of a 503, saying how many attempts were made", async () => {
    const server = await serve(() => ({ status: 503, body: { error: { message: "model is loading" } } }));
    const { model, sleeps } = modelFor(server, { maxRetries: 2, retryBaseDelayMs: 100 });
    const error = await failure(model.complete({ messages }));

    expect(server.requests).toHaveLength(3);
    expect(sleeps).toEqual([75, 150]);
    expect(error).toMatchObject({ failure: "status", status: 503, retryable: true, attempts: 3 });
    expect(error.message.replace(server.url, "<url>")).toBe("The model server at <url> failed with 503 (model is loading) after 3 attempts.");
  });

  test("retries a dropped connection", async () => {
    const server = await serve([{ drop: true }, "after the drop"]);
    const { model, retries } = modelFor(server);
    const response = await model.complete({ messages });
    expect(response.text).toBe("after the drop");
    expect(server.requests).toHaveLength(2);
    expect(retries[0].error.failure).toBe("connection");
  });

  test("times out a request that gets no answer, and retries it", async () => {
    const server = await serve(() => new Promise<never>(() => {}));
    const { model } = modelFor(server, { timeoutMs: 200, maxRetries: 1 });
    const error = await failure(model.complete({ messages }));

    expect(server.requests).toHaveLength(2);
    expect(error).toMatchObject({ failure: "timeout", retryable: true, attempts: 2 });
    expect(error.message.replace(server.url, "<url>")).toBe(
      "The model server at <url> did not answer in time (no complete answer within 200 ms) after 2 attempts. Raise the limit with --request-timeout-ms (RLMKIT_REQUEST_TIMEOUT_MS; the timeoutMs option in code), or check that the server is not overloaded.",
    );
  });

  test("says in one line that an unreachable server could not be reached", async () => {
    const port = await closedPort();
    const model = new OpenAICompatibleModel({ baseURL: `http://127.0.0.1:${port}/v1`, model: "test-model", retryBaseDelayMs: 1 });
    const error = await failure(model.complete({ messages }));

    expect(error).toMatchObject({ failure: "connection", retryable: true, attempts: 4 });
    expect(error.message).toBe(
      `Could not reach the model server at http://127.0.0.1:${port}/v1 (connection refused) after 4 attempts. Check --base-url / OPENAI_BASE_URL.`,
    );
    expect(error.cause).toBeInstanceOf(Error);
  });

  test("does not retry a 200 reply that is not a chat completion", async () => {
    const server = await serve([{ status: 200, body: { error: { message: "upstream provider unavailable" } } }, "never sent"]);
    const { model } = modelFor(server);
    const error = await failure(model.complete({ messages }));
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({ failure: "bad-response", retryable: false, attempts: 1, detail: "upstream provider unavailable" });
  });
});

describe("OpenAICompatibleModel abort", () => {
  test("the request's signal aborts a call in flight, without retrying", async () => {
    let received!: () => void;
    const arrived = new Promise<void>((resolve) => (received = resolve));
    const server = await serve(() => {
      received();
      return new Promise<never>(() => {});
    });
    const { model, retries } = modelFor(server);
    const controller = new AbortController();
    const call = model.complete({ messages, signal: controller.signal });
    await arrived;
    controller.abort(new Error("session timed out"));
    const error = await failure(call);

    expect(error).toMatchObject({ failure: "aborted", retryable: false, attempts: 1 });
    expect(error.cause).toEqual(new Error("session timed out"));
    expect(server.requests).toHaveLength(1);
    expect(retries).toEqual([]);
  });

  test("the request's signal also cuts the wait between retries short", async () => {
    const server = await serve([{ status: 500 }, "never sent"]);
    const controller = new AbortController();
    const model = new OpenAICompatibleModel({
      baseURL: server.url,
      model: "test-model",
      retryBaseDelayMs: 600_000,
      retryMaxDelayMs: 600_000,
      onRetry: () => controller.abort(),
    });
    const error = await failure(model.complete({ messages, signal: controller.signal }));
    expect(error).toMatchObject({ failure: "aborted", attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });

  test("an already aborted signal sends nothing", async () => {
    const server = await serve(["never sent"]);
    const { model } = modelFor(server);
    const error = await failure(model.complete({ messages, signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ failure: "aborted", attempts: 0 });
    expect(server.requests).toHaveLength(0);
  });
});

describe("OpenAICompatibleModel configuration", () => {
  test("falls back to OPENAI_BASE_URL, OPENAI_API_KEY and RLMKIT_MODEL", async () => {
    const server = await serve(["from env"]);
    vi.stubEnv("OPENAI_BASE_URL", server.url);
    vi.stubEnv("OPENAI_API_KEY", "sk-from-env");
    vi.stubEnv("RLMKIT_MODEL", "env-model");
    const model = new OpenAICompatibleModel();

    expect(model.modelId).toBe("env-model");
    expect(model.baseURL).toBe(server.url);
    expect((await model.complete({ messages })).text).toBe("from env");
    expect(server.requests[0].body.model).toBe("env-model");
    expect(server.requests[0].headers.authorization).toBe("Bearer sk-from-env");
  });

  test("options win over the environment, and extra headers are sent", async () => {
    const server = await serve(["from options"]);
    vi.stubEnv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1");
    vi.stubEnv("OPENAI_API_KEY", "sk-from-env");
    vi.stubEnv("RLMKIT_MODEL", "env-model");
    const model = new OpenAICompatibleModel({ baseURL: `${server.url}/`, apiKey: "sk-option", model: "option-model", headers: { "x-title": "rlmkit-test" } });

    expect(model.baseURL).toBe(server.url);
    await model.complete({ messages });
    expect(server.requests[0].body.model).toBe("option-model");
    expect(server.requests[0].headers.authorization).toBe("Bearer sk-option");
    expect(server.requests[0].headers["x-title"]).toBe("rlmkit-test");
  });

  test("throws ModelConfigurationError when no model name is known", () => {
    vi.stubEnv("RLMKIT_MODEL", "");
    const create = () => new OpenAICompatibleModel({ baseURL: "http://127.0.0.1:1/v1" });
    expect(create).toThrow(ModelConfigurationError);
    expect(create).toThrow("No model name: pass --model (the `model` option) or set RLMKIT_MODEL, e.g. RLMKIT_MODEL=qwen2.5-coder:7b.");
  });

  test("needs an API key only for the default OpenAI endpoint", () => {
    vi.stubEnv("OPENAI_BASE_URL", "");
    vi.stubEnv("OPENAI_API_KEY", "");
    expect(() => new OpenAICompatibleModel({ model: "gpt-test" })).toThrow(/No API key for https:\/\/api\.openai\.com\/v1/);
    // The default endpoint given explicitly (as the CLI's configuration does) is still the default endpoint.
    expect(() => new OpenAICompatibleModel({ model: "gpt-test", baseURL: "https://api.openai.com/v1/" })).toThrow(/No API key for https:\/\/api\.openai\.com\/v1/);
    expect(() => new OpenAICompatibleModel({ model: "local", baseURL: "http://127.0.0.1:1/v1" })).not.toThrow();
  });

  test("exposes the configured context window", () => {
    const model = new OpenAICompatibleModel({ model: "local", baseURL: "http://127.0.0.1:1/v1", contextWindow: 8192 });
    expect(model.contextWindow).toBe(8192);
  });
});

describe("OpenAICompatibleModel progress reports (request.onProgress)", () => {
  test("reports each request with its time-out, and each retry with its status and the Retry-After wait", async () => {
    const server = await serve([{ status: 503, headers: { "retry-after": "1" } }, { drop: true }, "third time"]);
    const { model } = modelFor(server, { timeoutMs: 5_000, maxRetries: 4 });
    const progress: ModelProgress[] = [];
    const response = await model.complete({ messages, onProgress: (report) => progress.push(report) });

    expect(response.text).toBe("third time");
    expect(progress.map((report) => [report.kind, report.attempt, "maxAttempts" in report ? report.maxAttempts : undefined])).toEqual([
      ["attempt", 1, 5],
      ["retry", 1, 5],
      ["attempt", 2, 5],
      ["retry", 2, 5],
      ["attempt", 3, 5],
    ]);
    expect(progress[0]).toEqual({ kind: "attempt", attempt: 1, maxAttempts: 5, timeoutMs: 5_000 });
    expect(progress[1]).toMatchObject({ kind: "retry", failure: "status", status: 503, delayMs: 1000 });
    // No Retry-After: backoff 500 * 2^1 ms, times the jitter factor 0.75.
    expect(progress[3]).toMatchObject({ kind: "retry", failure: "connection", delayMs: 750 });
    expect(progress[3]).not.toHaveProperty("status");
    expect((progress[1] as { message: string }).message).toMatch(/failed with 503/);
  });

  test("reports streamed output as it arrives, reasoning deltas counted apart", async () => {
    const server = await serve([{ text: "unused", reasoningChunks: ["Let me ", "think."], chunks: ["```js\n", "FINAL(1)\n", "```"], usage: null }]);
    const { model } = modelFor(server, { stream: true });
    const outputs: ModelProgress[] = [];
    await model.complete({ messages, onProgress: (report) => report.kind === "output" && outputs.push(report) });

    expect(outputs.map((report) => report.kind === "output" && [report.characters, report.reasoningCharacters, report.estimatedTokens])).toEqual([
      [0, 7, 2],
      [0, 13, 4],
      [6, 13, 5],
      [15, 13, 7],
      [18, 13, 8],
    ]);
  });

  test("a listener that throws changes nothing", async () => {
    const server = await serve([{ status: 500 }, "still answered"]);
    const { model } = modelFor(server, { stream: true });
    const response = await model.complete({
      messages,
      onProgress: () => {
        throw new Error("listener bug");
      },
    });
    expect(response.text).toBe("still answered");
  });
});
