import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { startOpenAIServer } from "../support/openai-server.ts";
import { js, makeRepo, runCli, SAMPLE_FILES } from "./run-cli.ts";

const repo = makeRepo(SAMPLE_FILES);
const trace = join(repo, "recorded.jsonl");
const contextTrace = join(repo, "with-context.jsonl");

beforeAll(async () => {
  const server = await startOpenAIServer([
    js('const source = nav_read("RetryPolicy.next")\nprint(source.text)'),
    js("print('<script>alert(1)</script>')\nFINAL({ doubles: source.text.includes('2 **'), lines: source.endLine - source.startLine + 1 })"),
  ]);
  const run = await runCli(["ask", "Does RetryPolicy.next double the delay?", "--repo", repo, "--model", "m", "--base-url", server.url, "--trace", trace]);
  expect(run.code).toBe(0);
  const contextServer = await startOpenAIServer(() => js("FINAL(context.length)"));
  writeFileSync(join(repo, "input.txt"), "twelve chars");
  const withContext = await runCli(["ask", "How long?", "--context", join(repo, "input.txt"), "--model", "m", "--base-url", contextServer.url, "--trace", contextTrace]);
  expect(withContext.code).toBe(0);
  await Promise.all([server.close(), contextServer.close()]);
});

describe("rlmkit replay", () => {
  test("re-runs the recorded replies offline, says so, and reports the same answer (exit 0)", async () => {
    const run = await runCli(["replay", trace, "--repo", repo]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Replaying 2 recorded model replies");
    expect(run.stdout).toContain("No model server is contacted");
    expect(run.stdout).toMatch(/turn 1\/20 · nav_read\("RetryPolicy\.next"\)/);
    expect(run.stdout).toContain('"doubles": true');
    expect(run.stdout).toContain("Reproduced: same status (final) and same answer as the recording, using 2 of 2 recorded replies.");
  });

  test("--json reports reproduced, the answers and the replies used", async () => {
    const run = await runCli(["replay", trace, "--repo", repo, "--json"]);
    expect(run.code).toBe(0);
    const outcome = JSON.parse(run.stdout);
    expect(outcome).toMatchObject({ reproduced: true, differences: [], status: "final", answer: { doubles: true, lines: 4 }, replies: { recorded: 2, used: 2 } });
  });

  test("reports a different answer and exits 3 when the code now computes something else", async () => {
    const changed = makeRepo({ ...SAMPLE_FILES, "src/retry.ts": SAMPLE_FILES["src/retry.ts"].replace("this.base * 2 ** attempt;", "this.base +\n      attempt;") });
    const run = await runCli(["replay", trace, "--repo", changed]);
    expect(run.code).toBe(3);
    expect(run.stdout).toContain("Did not reproduce the recording:");
    expect(run.stdout).toContain('answer: recorded {"doubles":true,"lines":4}, replayed {"doubles":false,"lines":5}');
  });

  test("needs the recorded context again, and replays with it", async () => {
    const without = await runCli(["replay", contextTrace]);
    expect(without.code).toBe(1);
    expect(without.stderr).toContain("rlmkit: the recorded session had a `context` input");
    const withIt = await runCli(["replay", contextTrace, "--context", join(repo, "input.txt"), "--json"]);
    expect(withIt.code).toBe(0);
    expect(JSON.parse(withIt.stdout)).toMatchObject({ reproduced: true, answer: 12 });
    const fromStdin = await runCli(["replay", contextTrace, "--context", "-", "--json"], { input: "twelve chars" });
    expect(fromStdin.code).toBe(0);
    expect(JSON.parse(fromStdin.stdout)).toMatchObject({ reproduced: true, answer: 12 });
  });

  test.each([
    { label: "a missing trace file", file: "/nonexistent/trace.jsonl", message: "rlmkit: trace file not found: /nonexistent/trace.jsonl" },
    { label: "a file with no events", file: join(repo, "README.md"), message: "holds no trace events" },
  ])("fails with one line and exit 1 for $label", async ({ file, message }) => {
    const run = await runCli(["replay", file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(message);
  });
});

describe("rlmkit view", () => {
  test("writes one self-contained page next to the trace, escaping what the model wrote", async () => {
    const run = await runCli(["view", trace]);
    expect(run.code).toBe(0);
    const output = join(repo, "recorded.html");
    expect(run.stdout.trim()).toBe(output);
    const html = readFileSync(output, "utf8");
    expect(html).toContain("Does RetryPolicy.next double the delay?");
    expect(html).toContain("intercepted: nav_read");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toMatch(/<script|<link|src="http|href="http/);
  });

  test("-o chooses the output; a missing trace fails with exit 1", async () => {
    const output = join(repo, "out", "page.html");
    const run = await runCli(["view", trace, "-o", output]);
    expect(run.code).toBe(0);
    expect(existsSync(output)).toBe(true);
    const missing = await runCli(["view", join(repo, "nope.jsonl")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^rlmkit: trace file not found: .*nope\.jsonl\n$/);
  });
});

describe("npm run demo", () => {
  test("the shipped demo trace still reproduces against this repository's own source", async () => {
    const root = new URL("../../", import.meta.url).pathname;
    const run = await runCli(["replay", "examples/demo-trace.jsonl", "--repo", ".", "--json"], { cwd: root });
    expect(JSON.parse(run.stdout)).toMatchObject({ reproduced: true, status: "final", replies: { recorded: 3, used: 3 } });
    expect(run.code).toBe(0);
  });
});
