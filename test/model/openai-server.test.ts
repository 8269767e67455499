import { describe, expect, test } from "vitest";
import { startOpenAIServer } from "../support/openai-server.ts";

const post = (url: string, body: unknown) =>
  fetch(`${url}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("the loopback OpenAI test server", () => {
  test("answers the scripted replies in order, then 400 saying the script ran out", async () => {
    await using server = await startOpenAIServer(["one"]);
    const first = await post(server.url, { model: "m", messages: [{ role: "user", content: "a b c" }] });
    expect(await first.json()).toMatchObject({
      model: "m",
      choices: [{ message: { role: "assistant", content: "one" }, finish_reason: "stop" }],
      usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
    });
    const second = await post(server.url, { model: "m", messages: [] });
    expect(second.status).toBe(400);
    expect(await second.json()).toEqual({ error: { message: "openai-server: all 1 scripted replies were used" } });
    expect(server.requests.map((request) => request.body.model)).toEqual(["m", "m"]);
  });

  test("streams SSE chunks, with a usage chunk only when asked", async () => {
    await using server = await startOpenAIServer(() => ({ text: "hello world", usage: { prompt_tokens: 5, completion_tokens: 2 } }));
    const events = async (body: object) => {
      const text = await (await post(server.url, { model: "m", messages: [], stream: true, ...body })).text();
      return text.split("\n\n").filter(Boolean).map((line) => line.replace(/^data: /, ""));
    };
    const withUsage = await events({ stream_options: { include_usage: true } });
    expect(withUsage.at(-1)).toBe("[DONE]");
    const chunks = withUsage.slice(0, -1).map((line) => JSON.parse(line));
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toBe("hello world");
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 2 } });

    const withoutUsage = await events({});
    expect(withoutUsage.some((line) => line.includes('"usage"'))).toBe(false);
  });

  test("turns a thrown handler error into a 500 and unknown routes into 404", async () => {
    await using server = await startOpenAIServer(() => {
      throw new Error("boom");
    });
    const failed = await post(server.url, { messages: [] });
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ error: { message: "boom" } });
    const missing = await fetch(`${server.url}/models`);
    expect(missing.status).toBe(404);
  });

  test("close() returns even while a request is left hanging", async () => {
    const server = await startOpenAIServer(() => new Promise<never>(() => {}));
    const hanging = post(server.url, { messages: [] }).catch((error: unknown) => error);
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await server.close();
    expect(await hanging).toBeInstanceOf(Error);
  });
});
