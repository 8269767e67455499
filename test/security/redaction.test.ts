import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runSession, ScriptedModel, type ModelRequest } from "../../src/index.ts";
import { js, feedbackOf } from "../support/scripted-replies.ts";

const hostFile = join(process.cwd(), "secret", "keys.txt");

describe("host text reaching the guest is redacted", () => {
  test.each([
    { label: "a file error naming an absolute path", error: `ENOENT: no such file or directory, open '${hostFile}'`, secret: hostFile, expected: "ENOENT: no such file or directory, open '<host path>'" },
    { label: "a one-folder path", error: "EACCES: permission denied, open '/secret'", secret: "/secret", expected: "EACCES: permission denied, open '<host path>'" },
    { label: "the model server's URL with credentials", error: "Connection error: request to http://admin:hunter2@127.0.0.1:11434/v1/chat/completions failed", secret: "hunter2", expected: "Connection error: request to <url> failed" },
  ])("an llm_query failing with $label", async ({ error, secret, expected }) => {
    const sub = new ScriptedModel([() => { throw new Error(error); }], { modelId: "sub" });
    const root = new ScriptedModel([js(`FINAL(await llm_query("p"))`)]);
    const result = await runSession({ question: "q", model: root, subModel: sub });
    expect(result.answer).toBe(`[llm_query error: ${expected}]`);
    expect(JSON.stringify(result.answer)).not.toContain(secret);
  });

  test("an rlm_query whose child's model fails does not show the parent the child's host paths", async () => {
    const sub = new ScriptedModel([() => { throw new Error(`cannot read ${join(homedir(), ".config", "token")}`); }], { modelId: "sub" });
    const root = new ScriptedModel([js(`FINAL(await rlm_query("Look.", "text"))`)]);
    const result = await runSession({ question: "q", model: root, subModel: sub });
    expect(result.answer).toMatch(/^\[rlm_query error: the child session ended with status 'error': model call failed: .*cannot read <host path>\]$/);
    expect(JSON.stringify(result.answer)).not.toContain(homedir());
  });
});

describe("the guest's own text is passed back verbatim", () => {
  test("a thrown message naming host folders comes back unchanged, so it tells the guest nothing", async () => {
    const guesses = [process.cwd(), homedir(), tmpdir(), "/secret", "/no/such/folder"];
    const message = guesses.map((guess) => `${guess}/x`).join(" ");
    const root = new ScriptedModel([js(`throw new Error(${JSON.stringify(message)})`), js('FINAL("done")')]);
    await runSession({ question: "q", model: root });
    expect(feedbackOf(root, 1)).toContain(`error: Error: ${message} (line 1`);
  });
});
