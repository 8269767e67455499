import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { OpenAICompatibleModel, ScriptedModel, type ModelClient, type ModelProgress } from "../../src/model/index.ts";
import { startOpenAIServer, type OpenAITestServer } from "../support/openai-server.ts";

/** One suite for the ModelClient seam, run against every implementation. */
let server: OpenAITestServer;
beforeAll(async () => {
  server = await startOpenAIServer((body) => `echo: ${body.messages?.at(-1)?.content}`);
});
afterAll(() => server.close());

const implementations: { name: string; create: () => ModelClient }[] = [
  { name: "ScriptedModel", create: () => new ScriptedModel([(request) => `echo: ${request.messages.at(-1)?.content}`]) },
  { name: "OpenAICompatibleModel", create: () => new OpenAICompatibleModel({ baseURL: server.url, model: "contract-model", maxRetries: 0 }) },
  { name: "OpenAICompatibleModel (streaming)", create: () => new OpenAICompatibleModel({ baseURL: server.url, model: "contract-model", maxRetries: 0, stream: true }) },
];

describe.for(implementations)("ModelClient contract: $name", ({ create }) => {
  test("answers a chat with text, whole-number usage, a known finish reason and a model name", async () => {
    const model = create();
    const response = await model.complete({ messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "ping" }] });

    expect(response.text).toBe("echo: ping");
    for (const count of [response.usage.promptTokens, response.usage.completionTokens]) {
      expect(Number.isInteger(count) && count > 0).toBe(true);
    }
    expect(["stop", "length", "content-filter", "error", "other"]).toContain(response.finishReason);
    expect(response.model.length).toBeGreaterThan(0);
    expect(model.modelId.length).toBeGreaterThan(0);
  });

  test("progress reports are optional, well-formed when sent, and a listener that throws never fails the call", async () => {
    const model = create();
    const reports: ModelProgress[] = [];
    const response = await model.complete({
      messages: [{ role: "user", content: "ping" }],
      onProgress: (report) => {
        reports.push(report);
        throw new Error("listener bug");
      },
    });
    expect(response.text).toBe("echo: ping");
    for (const report of reports) {
      expect(["attempt", "retry", "output"]).toContain(report.kind);
      expect(Number.isInteger(report.attempt) && report.attempt >= 1).toBe(true);
    }
  });

  test("rejects a request whose signal is already aborted", async () => {
    const model = create();
    const signal = AbortSignal.abort(new Error("cancelled"));
    await expect(model.complete({ messages: [{ role: "user", content: "ping" }], signal })).rejects.toThrow();
  });
});
