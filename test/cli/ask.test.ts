import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startOpenAIServer, type OpenAITestServer } from "../support/openai-server.ts";
import { js, makeRepo, runCli, SAMPLE_FILES } from "./run-cli.ts";

let repo: string;
// An explicit repository, so that ask does not default to the working directory.
const tinyRepo = makeRepo({ "README.md": "# tiny\n" });
beforeAll(() => {
  repo = makeRepo(SAMPLE_FILES);
});

describe("rlmkit ask against a loopback OpenAI-compatible server", () => {
  let server: OpenAITestServer;
  afterAll(async () => server?.close());

  test("answers with the nav tools on --repo, prints only the result JSON without a terminal, exits 0", async () => {
    server = await startOpenAIServer([
      { text: js('const hits = nav_search("RetryPolicy", { symbols: true })\nprint(hits.matches.map((m) => m.path + ":" + m.line).join("\\n"))'), usage: { prompt_tokens: 120, completion_tokens: 30 } },
      { text: js("FINAL(`RetryPolicy is declared in ${hits.matches[0].path}`)"), usage: { prompt_tokens: 200, completion_tokens: 20 } },
    ]);
    const trace = join(repo, "run.jsonl");
    const run = await runCli(["ask", "Where is RetryPolicy declared?", "--repo", repo, "--model", "test-model", "--base-url", server.url, "--trace", trace]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ status: "final", answer: "RetryPolicy is declared in src/retry.ts", iterations: 2, trace });
    expect(result.usage).toMatchObject({ promptTokens: 320, completionTokens: 50, modelCalls: 2 });
    expect(result.sessionId).toMatch(/\S/);
    expect(server.requests.map((request) => request.body.model)).toEqual(["test-model", "test-model"]);
    // The second request carries the first block's output: the nav tool ran on the repository.
    expect(JSON.stringify(server.requests[1].body.messages)).toContain("src/retry.ts:1");
    const events = readFileSync(trace, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(events.at(-1)).toMatchObject({ type: "session_end", status: "final" });
  });

  test("--context FILE and --context - (stdin) become the sandbox's context variable", async () => {
    const contextServer = await startOpenAIServer(() => js("FINAL(context.split('\\n').filter((line) => line.includes('ERROR')).length)"));
    const file = join(repo, "log.txt");
    writeFileSync(file, "ok\nERROR a\nok\nERROR b\nERROR c\n");
    const fromFile = await runCli(["ask", "How many errors?", "--context", file, "--model", "m", "--base-url", contextServer.url]);
    const fromStdin = await runCli(["ask", "How many errors?", "--context", "-", "--model", "m", "--base-url", contextServer.url], { input: "ERROR only\n" });
    await contextServer.close();
    expect([fromFile.code, JSON.parse(fromFile.stdout).answer]).toEqual([0, 3]);
    expect([fromStdin.code, JSON.parse(fromStdin.stdout).answer]).toEqual([0, 1]);
  });

  test("a session stopped by --max-iterations exits 2 (not answered) with the reason on stderr", async () => {
    const looping = await startOpenAIServer(() => js("print('still looking')"));
    const run = await runCli(["ask", "Never answered", "--repo", tinyRepo, "--max-iterations", "2", "--model", "m", "--base-url", looping.url]);
    await looping.close();
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: "max_iterations", iterations: 2 });
    expect(run.stderr).toMatch(/^rlmkit: no answer: .*2 iterations/);
  });

  test("environment variables configure the model when no flags are given", async () => {
    const envServer = await startOpenAIServer(() => js("FINAL('from env')"));
    const run = await runCli(["ask", "q", "--json", "--repo", tinyRepo], { env: { OPENAI_BASE_URL: envServer.url, RLMKIT_MODEL: "env-model", OPENAI_API_KEY: "sk-test-env-key" } });
    await envServer.close();
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).answer).toBe("from env");
    expect(envServer.requests[0].body.model).toBe("env-model");
    expect(envServer.requests[0].headers.authorization).toBe("Bearer sk-test-env-key");
  });
});

describe("rlmkit ask failures: one line on stderr, no stack trace, exit 1", () => {
  test.each([
    { label: "unreachable model server", args: ["ask", "q", "--repo", tinyRepo, "--model", "m", "--base-url", "http://127.0.0.1:9/v1"], message: /^rlmkit: model call failed: Could not reach the model server at http:\/\/127\.0\.0\.1:9\/v1 .*--base-url/ },
    { label: "no model configured", args: ["ask", "q"], message: /^rlmkit: no model configured: pass --model NAME, set RLMKIT_MODEL/ },
    { label: "no API key for the default OpenAI endpoint", args: ["ask", "q", "--model", "gpt-test"], message: /^rlmkit: No API key for https:\/\/api\.openai\.com\/v1: pass --api-key or set OPENAI_API_KEY/ },
    { label: "missing repository", args: ["ask", "q", "--model", "m", "--repo", "/nonexistent/rlmkit-repo"], message: /^rlmkit: repository not found: \/nonexistent\/rlmkit-repo/ },
    { label: "missing context file", args: ["ask", "q", "--model", "m", "--context", "/nonexistent/input.txt"], message: /^rlmkit: context file not found: \/nonexistent\/input.txt/ },
    { label: "unknown flag", args: ["ask", "q", "--frobnicate"], message: /^rlmkit: error: unknown option '--frobnicate'/ },
    { label: "missing question", args: ["ask"], message: /^rlmkit: error: missing required argument 'question'/ },
    { label: "non-numeric --max-iterations", args: ["ask", "q", "--model", "m", "--max-iterations", "ten"], message: /--max-iterations: must be a positive integer, got "ten"/ },
    { label: "unknown command, with a suggestion", args: ["aks", "q"], message: /^rlmkit: error: unknown command 'aks'\n\(Did you mean ask\?\)/, lines: 2 },
  ])("$label", async ({ args, message, lines = 1 }) => {
    const run = await runCli(args);
    expect(run.code).toBe(1);
    // The session's JSON still reaches stdout when a session ran (the unreachable server); otherwise stdout is empty.
    if (run.stdout !== "") expect(JSON.parse(run.stdout)).toMatchObject({ status: "error", error: expect.stringMatching(/\S/) });
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(lines);
  });
});
