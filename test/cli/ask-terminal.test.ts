import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { startOpenAIServer, type HandlerResult } from "../support/openai-server.ts";
import { BIN, js, runCli } from "./run-cli.ts";

/** What a person saw: everything the terminal received, with the escape codes and carriage returns kept. */
interface TerminalRun {
  readonly code: number | null;
  readonly screen: string;
  /** Each state the live line took (the text between redraws), in order. */
  readonly frames: readonly string[];
}

const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

/**
 * Runs `rlmkit ARGS` in a real pseudo-terminal with Debian's `script`: stdout and
 * stderr are both a terminal, as for a person at a shell, 200 columns wide.
 */
function runInTerminal(args: readonly string[], timeoutMs = 20_000): Promise<TerminalRun> {
  const command = `stty cols 200 rows 40; exec ${[process.execPath, BIN, ...args].map(quote).join(" ")}`;
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qfec", command, "/dev/null"], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), "rlmkit-pty-cache-")), TERM: "xterm" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let screen = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (screen += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      const frames = screen.split("\r\x1b[2K").map((frame) => frame.replace(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /, "").trim()).filter(Boolean);
      resolve({ code, screen, frames });
    });
  });
}

describe.concurrent("rlmkit ask on a terminal: the progress line and the summary", () => {
  test("a 503 with Retry-After shows the retry and its wait counting down, then the summary lists the retry", async () => {
    await using server = await startOpenAIServer([
      { status: 503, headers: { "retry-after": "1" }, body: { error: { message: "model is loading" } } },
      js('const n = 6 * 7\nprint(n)'),
      js("FINAL(`answer ${n}`)"),
    ]);
    const run = await runInTerminal(["ask", "What is six times seven?", "--model", "m", "--base-url", server.url]);
    expect(run.code).toBe(0);
    expect(run.frames).toContainEqual(expect.stringMatching(/^turn 1\/20 · waiting for the model \(time-out 120 s, --request-timeout-ms\) · 0 tokens · \d+\.\d s$/));
    expect(run.frames).toContainEqual(expect.stringMatching(/^turn 1\/20 · retry 1\/3 after 503, waiting 1 s · 0 tokens/));
    // The wait counts down while the line is redrawn.
    expect(run.frames).toContainEqual(expect.stringMatching(/retry 1\/3 after 503, waiting 0\.\d s/));
    expect(run.frames).toContainEqual(expect.stringMatching(/waiting for the model, attempt 2\/4 \(time-out 120 s, --request-timeout-ms\)/));
    expect(run.screen).toContain("answer 42\r\n");
    expect(run.screen).toMatch(/\r\nfinal · 2 turns · [\d,]+ tokens · cost unknown · \d+\.\d s\r\n {2}turn 1: ran 1 block\r\n {2}turn 2: FINAL\r\n {2}model retries: 1 \(503\)\r\n/);
  });

  test("--stream shows the tokens of a slow reply as they arrive, reasoning too; usage the server never sent is marked estimated", async () => {
    await using server = await startOpenAIServer([
      { text: "unused", reasoningChunks: ["The user ", "wants a ", "number. "], chunks: ["```js\n", "FINAL(", "'streamed ", "answer'", ")\n", "```"], chunkDelayMs: 200, usage: null },
    ]);
    const run = await runInTerminal(["ask", "Stream it", "--model", "m", "--base-url", server.url, "--stream"]);
    expect(run.code).toBe(0);
    const streamed = run.frames.filter((frame) => frame.includes("model writing:"));
    const counts = streamed.map((frame) => Number(/model writing: ~([\d,]+) tokens so far/.exec(frame)![1]!.replace(/,/g, "")));
    // At least two different counts, rising: the line moved while the reply arrived.
    expect(new Set(counts).size).toBeGreaterThanOrEqual(2);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(streamed[0]).toMatch(/^turn 1\/20 · model writing: ~\d+ tokens so far \(~\d+ reasoning\) · ~\d+ tokens · \d+\.\d s$/);
    expect(run.screen).toContain("streamed answer\r\n");
    expect(run.screen).toMatch(/\r\nfinal · 1 turn · ~[\d,]+ tokens \(estimated\) · cost unknown · /);
  });

  test("a server that never answers: the line names the time-out and its flag, each retry says why, and so does the error", async () => {
    await using server = await startOpenAIServer(() => new Promise<HandlerResult>(() => {}));
    const run = await runInTerminal(["ask", "Anyone there?", "--model", "m", "--base-url", server.url, "--request-timeout-ms", "300"]);
    expect(run.code).toBe(1);
    expect(run.frames).toContainEqual(expect.stringMatching(/waiting for the model \(time-out 0\.3 s, --request-timeout-ms\)/));
    expect(run.frames).toContainEqual(expect.stringMatching(/retry 1\/3 after the time-out \(--request-timeout-ms\), waiting/));
    expect(run.frames).toContainEqual(expect.stringMatching(/waiting for the model, attempt 4\/4/));
    expect(server.requests).toHaveLength(4);
    expect(run.screen).toMatch(/\r\nerror · 1 turn · 0 tokens · \d+\.\d s\r\n {2}turn 1: no reply from the model\r\n {2}model retries: 3 \(timeout, timeout, timeout\)\r\n/);
    expect(run.screen).toMatch(/rlmkit: model call failed: .* did not answer in time \(no complete answer within 300 ms\) after 4 attempts\. Raise the limit with --request-timeout-ms/);
  });
});

describe("rlmkit ask for other programs and for logs", () => {
  test("--output jsonl streams every event as a JSON line on stdout, then the result", async () => {
    await using server = await startOpenAIServer([js("print(1)"), js("FINAL('done')")]);
    const run = await runCli(["ask", "q", "--model", "m", "--base-url", server.url, "--output", "jsonl"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const lines = run.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ type: "session_start", question: "q" });
    expect(lines.map((line) => line.type)).toEqual(expect.arrayContaining(["model_request", "model_call", "code_block", "sandbox_result", "feedback", "final", "session_end"]));
    expect(lines.at(-2)).toMatchObject({ type: "session_end", status: "final" });
    expect(lines.at(-1)).toMatchObject({ type: "result", status: "final", answer: "done", iterations: 2, usage: { modelCalls: 2, costKnown: false, estimated: false } });
  });

  test("--verbose prints every step on stderr as it happens, with the answer alone on stdout", async () => {
    await using server = await startOpenAIServer([js("const words = ['a', 'b']\nprint(words.length)"), js("FINAL(words.join('+'))")]);
    const run = await runCli(["ask", "q", "--model", "m", "--base-url", server.url, "--output", "text", "--verbose"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("a+b\n");
    const steps = run.stderr.split("\n").map((line) => line.replace(/^\s+\d+\.\d s {2}/, ""));
    expect(steps).toEqual(expect.arrayContaining(["waiting for the model (time-out 120 s, --request-timeout-ms)", "running block 1: const words = ['a', 'b']", "block 1 printed 1 line", "running block 1: FINAL(words.join('+'))", "final answer"]));
    expect(run.stderr).toMatch(/\nfinal · 2 turns · [\d,]+ tokens · cost unknown · \d+\.\d s\n$/);
  });

  test("Ctrl-C (SIGINT) exits 130, the trace complete up to session_end", async () => {
    let requested!: () => void;
    const asked = new Promise<void>((resolve) => (requested = resolve));
    await using server = await startOpenAIServer(() => {
      requested();
      return new Promise<HandlerResult>(() => {});
    });
    const trace = join(mkdtempSync(join(tmpdir(), "rlmkit-sigint-")), "run.jsonl");
    const child = spawn(process.execPath, [BIN, "ask", "q", "--model", "m", "--base-url", server.url, "--trace", trace], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir() },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    await asked;
    child.kill("SIGINT");
    const code = await exited;
    clearTimeout(timer);

    expect(code).toBe(130);
    expect(stderr).toMatch(/rlmkit: interrupted \(Ctrl-C\)\n$/);
    expect(JSON.parse(stdout)).toMatchObject({ status: "error", error: "session cancelled: interrupted (Ctrl-C)" });
    const events = readFileSync(trace, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line));
    expect(events[0]).toMatchObject({ type: "session_start" });
    expect(events.at(-1)).toMatchObject({ type: "session_end", status: "error", error: "session cancelled: interrupted (Ctrl-C)" });
  });
});
