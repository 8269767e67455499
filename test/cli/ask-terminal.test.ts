import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { startOpenAIServer, type HandlerResult, type OpenAITestServer } from "../support/openai-server.ts";
import { tempDir } from "../support/temp-dir.ts";
import { BIN, js, makeRepo, runCli } from "./run-cli.ts";

// An explicit repository, so that ask does not default to the working directory.
const tinyRepo = makeRepo({ "README.md": "# tiny\n" });

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
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), XDG_CACHE_HOME: tempDir("rlmkit-pty-cache-"), TERM: "xterm" },
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

interface TerminalCase {
  readonly label: string;
  /** What the loopback server answers, request by request. */
  readonly server: () => Promise<OpenAITestServer>;
  readonly flags: readonly string[];
  readonly code: number;
  readonly requests: number;
  /** Each must match at least one state of the live line. */
  readonly frames: readonly RegExp[];
  /** A count in the live line (first capture group) that must take two values or more, never falling. */
  readonly rising?: RegExp;
  /** What must be left on the screen after the run: the answer, the summary, the error. */
  readonly screen: readonly RegExp[];
}

const TERMINAL_CASES: readonly TerminalCase[] = [
  {
    label: "a 503 with Retry-After: the retry with its wait counting down, the retried request, the retry in the summary",
    server: () => startOpenAIServer([{ status: 503, headers: { "retry-after": "1" }, body: { error: { message: "model is loading" } } }, js("const n = 6 * 7\nprint(n)"), js("FINAL(`answer ${n}`)")]),
    flags: [],
    code: 0,
    requests: 3,
    frames: [
      /^turn 1\/20 · waiting for the model \(time-out 120 s, --request-timeout-ms\) · 0 tokens · \d+\.\d s$/,
      /^turn 1\/20 · retry 1\/3 after 503, waiting 1 s · 0 tokens/,
      /retry 1\/3 after 503, waiting 0\.\d s/,
      /waiting for the model, attempt 2\/4 \(time-out 120 s, --request-timeout-ms\)/,
    ],
    screen: [/answer 42\r\n/, /\r\nfinal · 2 turns · [\d,]+ tokens · cost unknown · \d+\.\d s\r\n {2}turn 1: ran 1 block\r\n {2}turn 2: FINAL\r\n {2}model retries: 1 \(503\)\r\n/],
  },
  {
    label: "--stream: a slow reply's tokens as they arrive, reasoning apart; usage the server never sent is marked estimated",
    server: () => startOpenAIServer([{ text: "unused", reasoningChunks: ["The user ", "wants a ", "number. "], chunks: ["```js\n", "FINAL(", "'streamed ", "answer'", ")\n", "```"], chunkDelayMs: 200, usage: null }]),
    flags: ["--stream"],
    code: 0,
    requests: 1,
    frames: [/^turn 1\/20 · model writing: ~\d+ tokens so far \(~\d+ reasoning\) · ~\d+ tokens · \d+\.\d s$/],
    rising: /model writing: ~([\d,]+) tokens so far/,
    screen: [/streamed answer\r\n/, /\r\nfinal · 1 turn · ~[\d,]+ tokens \(estimated\) · cost unknown · /],
  },
  {
    label: "a server that never answers: the time-out and its flag while waiting, each retry's cause, an error that names the flag",
    server: () => startOpenAIServer(() => new Promise<HandlerResult>(() => {})),
    flags: ["--request-timeout-ms", "300"],
    code: 1,
    requests: 4,
    frames: [/waiting for the model \(time-out 0\.3 s, --request-timeout-ms\)/, /retry 1\/3 after the time-out \(--request-timeout-ms\), waiting/, /waiting for the model, attempt 4\/4/],
    screen: [
      /\r\nerror · 1 turn · 0 tokens · \d+\.\d s\r\n {2}turn 1: no reply from the model\r\n {2}model retries: 3 \(timeout, timeout, timeout\)\r\n/,
      /rlmkit: model call failed: .* did not answer in time \(no complete answer within 300 ms\) after 4 attempts\. Raise the limit with --request-timeout-ms/,
    ],
  },
];

describe.concurrent("rlmkit ask in a pseudo-terminal: the progress line and the summary", () => {
  test.for(TERMINAL_CASES)("$label", async ({ server: start, flags, code, requests, frames, rising, screen }) => {
    await using server = await start();
    const run = await runInTerminal(["ask", "What is six times seven?", "--repo", tinyRepo, "--model", "m", "--base-url", server.url, ...flags]);
    expect(run.code).toBe(code);
    expect(server.requests).toHaveLength(requests);
    for (const frame of frames) expect(run.frames).toContainEqual(expect.stringMatching(frame));
    if (rising) {
      const counts = run.frames.flatMap((frame) => rising.exec(frame)?.[1] ?? []).map((count) => Number(count.replace(/,/g, "")));
      // The line moved while the reply arrived: two counts or more, never falling.
      expect(new Set(counts).size).toBeGreaterThanOrEqual(2);
      expect(counts).toEqual([...counts].sort((a, b) => a - b));
    }
    for (const pattern of screen) expect(run.screen).toMatch(pattern);
  });
});

describe("rlmkit ask for other programs and for logs", () => {
  test("--output jsonl to a terminal: whole JSON lines, no line redrawn in between, the summary after them", async () => {
    await using server = await startOpenAIServer([js("FINAL('done')")]);
    const run = await runInTerminal(["ask", "q", "--repo", tinyRepo, "--model", "m", "--base-url", server.url, "--output", "jsonl"]);
    expect(run.code).toBe(0);
    expect(run.screen).not.toContain("\x1b[2K");
    const [events, summary] = run.screen.split("\r\n\r\n");
    const lines = events!.split("\r\n").map((line) => JSON.parse(line));
    expect(lines.at(-1)).toMatchObject({ type: "result", status: "final", answer: "done" });
    expect(summary).toMatch(/^final · 1 turn · /);
  });

  test("--output jsonl streams every event as a JSON line on stdout, then the result", async () => {
    await using server = await startOpenAIServer([js("print(1)"), js("FINAL('done')")]);
    const run = await runCli(["ask", "q", "--repo", tinyRepo, "--model", "m", "--base-url", server.url, "--output", "jsonl"]);
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
    const run = await runCli(["ask", "q", "--repo", tinyRepo, "--model", "m", "--base-url", server.url, "--output", "text", "--verbose"]);
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
    const dir = tempDir("rlmkit-sigint-");
    const trace = join(dir, "run.jsonl");
    // A private cache folder, so that the index of the working directory is not written to the user's cache.
    const child = spawn(process.execPath, [BIN, "ask", "q", "--model", "m", "--base-url", server.url, "--trace", trace], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), XDG_CACHE_HOME: join(dir, "cache") },
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
