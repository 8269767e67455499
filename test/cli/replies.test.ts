import { describe, expect, test } from "vitest";
import { startOpenAIServer, type HandlerResult } from "../support/openai-server.ts";
import { js, runCli } from "./run-cli.ts";

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
}

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
];

describe("rlmkit ask: reasoning and replies without code", () => {
  test.for(rows)("$label", async (row) => {
    await using server = await startOpenAIServer(row.replies);
    const run = await runCli(["ask", "Where is the retry policy?", "--model", "m", "--base-url", server.url, ...(row.flags ?? [])]);
    expect(run.stderr).toMatch(row.stderr);
    expect(run.code).toBe(row.code);
    const result = JSON.parse(run.stdout);
    expect(result.status).toBe(row.status);
    expect(result.answer).toEqual(row.answer);
    expect(server.requests).toHaveLength(row.replies.length);
  });
});
