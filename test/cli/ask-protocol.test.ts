import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startOpenAIServer, type OpenAITestServer } from "../support/openai-server.ts";
import { makeRepo, runCli, SAMPLE_FILES } from "./run-cli.ts";

let repo: string;
beforeAll(() => {
  repo = makeRepo(SAMPLE_FILES);
});

describe("rlmkit ask --protocol", () => {
  let server: OpenAITestServer | undefined;
  afterAll(async () => server?.close());

  test("native: the nav tools go to the server as function tools, and a reply without a call is the answer", async () => {
    server = await startOpenAIServer((body, { index }) => {
      if (index === 0) return { text: "", toolCalls: [{ id: "call_1", name: "nav_search", arguments: '{"query": "RetryPolicy", "options": {"symbols": true}}' }] };
      const result = JSON.parse(body.messages?.find((message) => message.role === "tool")?.content ?? "{}") as { matches?: { path: string }[] };
      return `RetryPolicy is declared in ${result.matches?.[0]?.path}`;
    });
    const run = await runCli(["ask", "Where is RetryPolicy declared?", "--repo", repo, "--model", "tool-model", "--base-url", server.url, "--protocol", "native"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: "final", answer: "RetryPolicy is declared in src/retry.ts", iterations: 2 });
    const [first, second] = server.requests.map((request) => request.body);
    expect(first.tools?.map((tool) => tool.function.name)).toEqual(expect.arrayContaining(["nav_search", "nav_read"]));
    expect(second.messages?.filter((message) => message.role === "tool").map((message) => message.tool_call_id)).toEqual(["call_1"]);
  });

  test("the protocol comes from RLMKIT_PROTOCOL or the config file too, and an unknown one stops the command", async () => {
    const fromEnv = await runCli(["config", "--json"], { env: { RLMKIT_PROTOCOL: "native" } });
    const rows = JSON.parse(fromEnv.stdout).values as { key: string; value: unknown; source: string }[];
    expect(rows.find((row) => row.key === "protocol")).toMatchObject({ value: "native", source: "env RLMKIT_PROTOCOL" });

    const unknown = await runCli(["ask", "q", "--repo", makeRepo({ "rlmkit.config.json": JSON.stringify({ protocol: "xml" }) })]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/'protocol' must be "code", .*"native"/);
  });
});
