import { tmpdir } from "node:os";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BIN, js, makeRepo, SAMPLE_FILES } from "../cli/run-cli.ts";
import { startOpenAIServer, type OpenAITestServer } from "../support/openai-server.ts";
import { tempDir } from "../support/temp-dir.ts";

type ToolResult = { content: { type: string; text: string }[]; isError?: boolean; structuredContent?: Record<string, unknown> };

describe("rlmkit mcp, driven by an MCP client from the official SDK", () => {
  let server: OpenAITestServer;
  let client: Client;
  let stderr = "";
  const repo = makeRepo({ ...SAMPLE_FILES, "docs/notes.txt": "alpha\nbeta\ngamma\n", ".gitignore": "*.log\n", "docs/build.log": "LOGGED_MARKER\n", "docs/kept.md": "LOGGED_MARKER in a note\n" });

  beforeAll(async () => {
    server = await startOpenAIServer((body) => {
      const prompt = JSON.stringify(body.messages);
      if (prompt.includes("How many lines")) return js("FINAL(context.split('\\n').filter(Boolean).length)");
      if (prompt.includes("Which files are marked")) return js('const marked = nav_search("LOGGED_MARKER")\nFINAL(marked.matches.map((match) => match.path).join(","))');
      if (prompt.includes("[block 1]")) return js("FINAL(`next() is in ${hits.matches[0].path}`)");
      return js('const hits = nav_search("next(attempt", { glob: "src/**" })\nprint(hits.matches.length)');
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "mcp", "--repo", repo, "--model", "mcp-model", "--base-url", server.url],
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), XDG_CACHE_HOME: tempDir("rlmkit-mcp-cache-") },
      stderr: "pipe",
    });
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    client = new Client({ name: "rlmkit-test-client", version: "1.0.0" });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  test("lists rlm_query and the six nav tools with their input schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["rlm_query", "nav_info", "nav_ls", "nav_outline", "nav_read", "nav_search", "nav_refs"]);
    const query = tools.find((tool) => tool.name === "rlm_query")!;
    expect(query.inputSchema.required).toEqual(["question"]);
    expect(Object.keys(query.inputSchema.properties ?? {})).toEqual(["question", "path", "context", "maxIterations", "timeoutMs", "budgetUsd"]);
  });

  test("nav_search finds the line and its enclosing symbol", async () => {
    const result = (await client.callTool({ name: "nav_search", arguments: { query: "2 ** attempt" } })) as ToolResult;
    expect(result.isError).toBeFalsy();
    const found = JSON.parse(result.content[0].text);
    expect(found.matches).toEqual([expect.objectContaining({ path: "src/retry.ts", line: 6, symbol: "RetryPolicy.next" })]);
  });

  test("rlm_query is answered by the model on the loopback server, using the nav tools", async () => {
    const before = server.requests.length;
    const result = (await client.callTool({ name: "rlm_query", arguments: { question: "Where is next() defined?", maxIterations: 4 } })) as ToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.content[0].text).toBe("next() is in src/retry.ts");
    expect(result.structuredContent).toMatchObject({ status: "final", iterations: 2, answer: "next() is in src/retry.ts" });
    expect(server.requests.slice(before).map((request) => request.body.model)).toEqual(["mcp-model", "mcp-model"]);
  });

  test("rlm_query with a path inside the repository gives that file as context", async () => {
    const result = (await client.callTool({ name: "rlm_query", arguments: { question: "How many lines?", path: "docs/notes.txt" } })) as ToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.content[0].text).toBe("3");
  });

  test("rlm_query with a folder as path reads it under the repository's .gitignore", async () => {
    const result = (await client.callTool({ name: "rlm_query", arguments: { question: "Which files are marked?", path: "docs" } })) as ToolResult;
    expect(result.isError, result.content[0]?.text).toBeFalsy();
    // docs/build.log is ignored by the repository's *.log, one folder up.
    expect(result.content[0].text).toBe("kept.md");
  });

  test.each([
    { label: "a wrong argument type", name: "nav_search", arguments: { query: 42 }, message: /nav_search: query must be string/ },
    { label: "a missing required argument", name: "rlm_query", arguments: {}, message: /missing required argument 'question'/ },
    { label: "an unknown argument", name: "nav_read", arguments: { target: "RetryPolicy", lines: 3 }, message: /unknown argument 'lines'/ },
    { label: "an out-of-range limit", name: "rlm_query", arguments: { question: "q", maxIterations: 0 }, message: /maxIterations must be >= 1/ },
    { label: "a path outside the repository", name: "rlm_query", arguments: { question: "q", path: "../../etc/passwd" }, message: /does not exist in the repository|outside the repository/ },
    { label: "a target the nav tool cannot find", name: "nav_read", arguments: { target: "NoSuchSymbol" }, message: /NoSuchSymbol/ },
  ])("a malformed call ($label) is an MCP tool error, and the server keeps serving", async ({ name, arguments: args, message }) => {
    const result = (await client.callTool({ name, arguments: args })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(message);
    const after = (await client.callTool({ name: "nav_info", arguments: {} })) as ToolResult;
    // src/retry.ts, src/main.ts, README.md, .gitignore, docs/notes.txt, docs/kept.md; not the ignored docs/build.log.
    expect(JSON.parse(after.content[0].text).files).toBe(6);
  });

  test("an unknown tool is an MCP protocol error, and the server keeps serving", async () => {
    await expect(client.callTool({ name: "nav_grep", arguments: {} })).rejects.toThrow(/unknown tool 'nav_grep'/);
    const after = (await client.callTool({ name: "nav_ls", arguments: { path: "src" } })) as ToolResult;
    expect(after.isError).toBeFalsy();
    expect(stderr).not.toMatch(/unexpected/);
  });
});
