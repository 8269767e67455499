import { afterAll, describe, expect, test } from "vitest";
import { startOpenAIServer, type OpenAITestServer } from "../support/openai-server.ts";
import { parseNlTools } from "../../src/cli/nl-tools-option.ts";
import { js, makeRepo, runCli } from "./run-cli.ts";

describe("--nl-tools values", () => {
  test.each([
    ["all: every tool", "all", true],
    ["none: no tool", "none", false],
    ["names, spaces trimmed", " spawn_sub_session , set_reminder ", ["spawn_sub_session", "set_reminder"]],
  ])("%s", (_label, value, expected) => {
    expect(parseNlTools(value)).toEqual(expected);
  });
});

describe("rlmkit ask --background-sessions --nl-tools --translator-model", () => {
  let server: OpenAITestServer | undefined;
  afterAll(async () => server?.close());

  test("the root describes a background task, the translator expands it, the child answers, and the root reports it", async () => {
    const repo = makeRepo({ "README.md": "# tiny\n" });
    server = await startOpenAIServer((body) => {
      if (body.model === "tr") return '{"objective": "Answer with the word hello."}';
      if (body.model === "child") return js('FINAL("hello")');
      return js('const r = spawn_sub_session("in the background, say hello")\nconst all = await_sub_sessions()\nFINAL(all.tasks[0].answer)');
    });
    const run = await runCli(["ask", "Say hello through a background task.", "--repo", repo, "--model", "root", "--sub-model", "child", "--translator-model", "tr", "--background-sessions", "--nl-tools", "spawn_sub_session", "--base-url", server.url, "--sandbox", "isolate", "--verbose"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: "final", answer: "hello" });
    const models = server.requests.map((request) => request.body.model);
    expect(models).toEqual(["root", "tr", "child"]);
    expect(JSON.stringify(server.requests[0]!.body.messages)).toContain("spawn_sub_session(description: string)");
    expect(JSON.stringify(server.requests[2]!.body.messages)).toContain("Answer with the word hello.");
    // --verbose names the translation and the task's states.
    expect(run.stderr).toContain("spawn_sub_session by description → 1 call");
    expect(run.stderr).toMatch(/background task_1: running[\s\S]*background task_1: done/);
  });

  test("an unknown name in --nl-tools is an error naming the option", async () => {
    const repo = makeRepo({ "README.md": "# tiny\n" });
    const run = await runCli(["ask", "q", "--repo", repo, "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--nl-tools", "set_alarm"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("nlTools names 'set_alarm'");
  });
});
