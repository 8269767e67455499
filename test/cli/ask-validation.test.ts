import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, test } from "vitest";
import { startOpenAIServer, type OpenAITestServer } from "../support/openai-server.ts";
import { CORPUS_DIR } from "../support/validation-corpus.ts";
import { js, makeRepo, runCli } from "./run-cli.ts";

describe("rlmkit ask --validate", () => {
  let server: OpenAITestServer;
  afterAll(async () => server?.close());

  test("a validator model on the same server corrects an empty promise; the rounds go to the trace and the SQLite log", async () => {
    let mainCalls = 0;
    server = await startOpenAIServer((body) => {
      const prompt = (body.messages ?? []).map((message) => message.content ?? "").join("\n");
      if (body.model === "validator") {
        const promises = prompt.includes("I'll check the retry code first.");
        return JSON.stringify({ violations: promises ? [{ hook: "empty_promise", reason: "it promises a check and runs nothing" }] : [] });
      }
      mainCalls++;
      return mainCalls === 1 ? "I'll check the retry code first." : js('const hits = nav_search("shouldRetry")\nFINAL(hits.matches[0].path)');
    });
    const work = makeRepo({});
    const trace = join(work, "run.jsonl");
    const log = join(work, "validation.sqlite");
    const run = await runCli(["ask", "Where is shouldRetry?", "--repo", join(CORPUS_DIR, "repo"), "--model", "main", "--base-url", server.url, "--validator-model", "validator", "--validation-log", log, "--trace", trace]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: "final", answer: "src/retry.ts" });
    const secondMain = server.requests.filter((request) => request.body.model === "main")[1];
    expect(JSON.stringify(secondMain.body.messages)).toContain("You said you would do something but your reply does not do it");
    const events = readFileSync(trace, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(events.filter((event) => event.type === "validation" && event.violations.length > 0)).toMatchObject([{ point: "after_reply", violations: [{ hook: "empty_promise", reason: "it promises a check and runs nothing" }] }]);
    const database = new DatabaseSync(log);
    const outcomes = database.prepare("SELECT stage, hook, outcome FROM interaction_log WHERE outcome != 'ok' ORDER BY id").all();
    database.close();
    expect(outcomes.slice(0, 3)).toEqual([
      { stage: 1, hook: null, outcome: "violation_detected" },
      { stage: 2, hook: "empty_promise", outcome: "confirmed" },
      { stage: 3, hook: null, outcome: "corrected" },
    ]);
  });

  test("the config file turns validation on; a malformed hooks file is reported in the trace, not fatal", async () => {
    const local = await startOpenAIServer(() => js('FINAL("done")'));
    const work = makeRepo({ "rlmkit.config.json": JSON.stringify({ validate: true, validationHooks: "hooks.json" }), "hooks.json": "[{ not json" });
    const trace = join(work, "run.jsonl");
    const run = await runCli(["ask", "q", "--repo", work, "--model", "m", "--base-url", local.url, "--trace", trace], { cwd: work });
    await local.close();
    expect(run.code).toBe(0);
    const events = readFileSync(trace, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    const problems = events.find((event) => event.type === "validation");
    expect(problems.notes.join("\n")).toMatch(/custom hooks file .*hooks\.json: .*; using the built-in hooks/);
  });
});
