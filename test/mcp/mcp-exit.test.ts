import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BIN, js, makeRepo, SAMPLE_FILES } from "../cli/run-cli.ts";
import { exitWithin } from "../support/child-exit.ts";
import { startOpenAIServer, type OpenAITestServer } from "../support/openai-server.ts";
import { tempDir } from "../support/temp-dir.ts";

/** A JSON-RPC client over a real `rlmkit mcp` child process's stdin and stdout. */
function startMcp(repo: string, baseUrl: string) {
  const child = spawn(process.execPath, [BIN, "mcp", "--repo", repo, "--model", "exit-model", "--base-url", baseUrl], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), XDG_CACHE_HOME: tempDir("rlmkit-mcp-exit-cache-") },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const waiting = new Map<number, (message: { result?: { content: { text: string }[]; isError?: boolean } }) => void>();
  let buffered = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf("\n"); end !== -1; end = buffered.indexOf("\n")) {
      const message = JSON.parse(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      waiting.get(message.id)?.(message);
    }
  });
  let nextId = 0;
  const request = (method: string, params: unknown) =>
    new Promise<{ result?: { content: { text: string }[]; isError?: boolean } }>((resolve) => {
      const id = ++nextId;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  const initialize = async () => {
    await request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "exit-test", version: "1.0.0" } });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  };
  return { child, request, initialize, stderr: () => stderr };
}

describe("rlmkit mcp exits when its stdin closes (a real child process)", () => {
  let server: OpenAITestServer;
  const repo = makeRepo(SAMPLE_FILES);

  beforeAll(async () => {
    server = await startOpenAIServer((body) => {
      if (JSON.stringify(body.messages).includes("[block 1]")) return js("FINAL(hits.matches.length)");
      if (JSON.stringify(body.messages).includes("hang")) return new Promise(() => {});
      return js('const hits = nav_search("attempt")\nprint(hits.matches.length)');
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  test.each([
    { label: "right after start-up", calls: [] as { name: string; arguments: Record<string, unknown> }[] },
    { label: "after nav tool calls", calls: [{ name: "nav_search", arguments: { query: "attempt" } }, { name: "nav_read", arguments: { target: "RetryPolicy.next" } }] },
    {
      label: "after an rlm_query and nav tool calls",
      calls: [{ name: "rlm_query", arguments: { question: "How often is attempt used?", maxIterations: 3 } }, { name: "nav_outline", arguments: { path: "src/main.ts" } }],
    },
  ])("$label: exit code 0 within a second", async ({ calls }) => {
    const mcp = startMcp(repo, server.url);
    await mcp.initialize();
    for (const call of calls) {
      const reply = await mcp.request("tools/call", call);
      expect(reply.result?.isError, `${call.name}: ${reply.result?.content[0].text}`).toBeFalsy();
    }
    const exited = exitWithin(mcp.child, 1_000, "rlmkit mcp");
    mcp.child.stdin.end();
    await expect(exited).resolves.toMatchObject({ code: 0 });
    expect(mcp.stderr()).not.toMatch(/unexpected/);
  });

  test("with an rlm_query still waiting on the model: the query is cancelled and the server exits within a second", async () => {
    const mcp = startMcp(repo, server.url);
    await mcp.initialize();
    const before = server.requests.length;
    void mcp.request("tools/call", { name: "rlm_query", arguments: { question: "hang here" } });
    await expect.poll(() => server.requests.length, { timeout: 10_000 }).toBeGreaterThan(before);
    const exited = exitWithin(mcp.child, 1_000, "rlmkit mcp with a query in flight");
    mcp.child.stdin.end();
    await expect(exited).resolves.toMatchObject({ code: 0 });
  });
});
