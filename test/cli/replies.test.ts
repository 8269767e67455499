import { describe, expect, test } from "vitest";
import { startOpenAIServer, type HandlerResult, type RecordedHttpRequest } from "../support/openai-server.ts";
import { js, makeRepo, runCli } from "./run-cli.ts";

// An explicit repository, so that ask does not default to the working directory.
const tinyRepo = makeRepo({ "README.md": "# tiny\n" });

const python = (code: string) => "```python\n" + code + "\n```";

interface Row {
  readonly label: string;
  readonly replies: readonly HandlerResult[];
  readonly flags?: readonly string[];
  readonly code: number;
  readonly status: string;
  readonly answer?: unknown;
  /** What the user sees on stderr (stdout holds the result JSON: it is not a terminal). */
  readonly stderr: RegExp;
  /** What the model was sent. */
  readonly requests?: (requests: readonly RecordedHttpRequest[]) => void;
}

const runaway = `${js('const where = "src/retry.ts"')}\n${"again ".repeat(35_000)}`;

const rows: Row[] = [
  {
    label: "a <think> draft FINAL is not the answer: exit 0 with the answer written after it",
    replies: [`<think>Probably ${js('FINAL("src/retry.ts")')}</think>\n${js('FINAL("src/policy.ts")')}`],
    code: 0,
    status: "final",
    answer: "src/policy.ts",
    stderr: /^$/,
  },
  {
    label: "streamed reasoning_content with empty content, then code: exit 0",
    flags: ["--stream"],
    replies: [{ text: "", reasoning: js("FINAL(1)") }, js("FINAL(2)")],
    code: 0,
    status: "final",
    answer: 2,
    stderr: /^$/,
  },
  {
    label: "```python forever: exit 2 (not answered), status no_code, one line saying why",
    replies: [python("print(1)"), python("print(2)"), python("print(3)")],
    code: 2,
    status: "no_code",
    stderr: /^rlmkit: no answer: the model wrote no runnable code in 3 replies in a row \(the last one: it had a ```python fence, and only JavaScript runs here\)\n$/,
  },
  {
    label: "a 200,000-character reply cut at --max-tokens: its block ran, the next request is small and says where it was cut",
    flags: ["--max-tokens", "512"],
    replies: [{ text: runaway, finishReason: "length", usage: { prompt_tokens: 800, completion_tokens: 512 } }, js("FINAL(where)")],
    code: 0,
    status: "final",
    answer: "src/retry.ts",
    stderr: /^$/,
    requests: (requests) => {
      expect(requests.map((request) => request.body.max_tokens)).toEqual([512, 512]);
      expect(JSON.stringify(requests[1]!.body).length).toBeLessThan(20_000);
      expect(requests[1]!.body.messages!.at(-1)!.content).toContain("Your reply was cut at 512 tokens (the limit is 512 tokens per reply): block 1 was run.");
    },
  },
  {
    label: "max_tokens 4,096 is sent by default",
    replies: [js("FINAL(0)")],
    code: 0,
    status: "final",
    answer: 0,
    stderr: /^$/,
    requests: (requests) => expect(requests[0]!.body.max_tokens).toBe(4096),
  },
  {
    label: "--context-window 8000: large outputs are compacted, every request fits, the answer comes from turn 1's variable",
    flags: ["--context-window", "8000", "--max-iterations", "6"],
    replies: [js('const found = "src/retry.ts"; print("x".repeat(30000))'), ...[1, 2, 3, 4].map((turn) => js(`print("${turn}".repeat(30000))`)), js("FINAL(found)")],
    code: 0,
    status: "final",
    answer: "src/retry.ts",
    stderr: /^$/,
    requests: (requests) => {
      for (const request of requests) {
        expect(request.body.max_tokens).toBe(4000);
        const promptChars = request.body.messages!.reduce((sum, message) => sum + (message.content ?? "").length, 0);
        expect(Math.ceil(promptChars / 4) + 4000).toBeLessThanOrEqual(8000);
      }
      expect(requests.at(-1)!.body.messages![1]!.content).toContain("compacted to fit the model's context window");
    },
  },
];

describe("rlmkit ask: reasoning, cut replies and replies without code", () => {
  test.for(rows)("$label", async (row) => {
    await using server = await startOpenAIServer(row.replies);
    const run = await runCli(["ask", "Where is the retry policy?", "--repo", tinyRepo, "--model", "m", "--base-url", server.url, ...(row.flags ?? [])]);
    expect(run.stderr).toMatch(row.stderr);
    expect(run.code).toBe(row.code);
    const result = JSON.parse(run.stdout);
    expect(result.status).toBe(row.status);
    expect(result.answer).toEqual(row.answer);
    expect(server.requests).toHaveLength(row.replies.length);
    row.requests?.(server.requests);
  });
});
