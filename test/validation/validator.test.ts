import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, describe, expect, test } from "vitest";
import { createValidator, defineTool, InvalidOptionsError, ScriptedModel, type Validator, type ValidationInput } from "../../src/index.ts";
import { CORPUS_DIR } from "../support/validation-corpus.ts";
import { tempDir } from "../support/temp-dir.ts";

const nothingRan = { toolCalls: [], blocksRun: 0, outputSeen: [] } as const;
const promise = (extra: Partial<ValidationInput> = {}): ValidationInput => ({ phase: "post_inference", scope: "main", reply: "I'll check the retry policy next.", turn: nothingRan, ...extra });
const js = (code: string): string => "```js\n" + code + "\n```";
const navRead = defineTool({
  name: "nav_read",
  description: "Reads a target.",
  parameters: { type: "object", properties: { target: { type: "string" } }, required: ["target"], additionalProperties: false },
  handler: () => null,
});
const open: Validator[] = [];
function validator(options: Parameters<typeof createValidator>[0] = {}): Validator {
  const created = createValidator(options);
  open.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
});
const scratch = (): string => tempDir("rlmkit-validation-");

describe("phases", () => {
  test.each([
    ["post_inference", "a reply promising a check", promise(), ["empty_promise"]],
    ["pre_execution", "the same reply at pre_execution", promise({ phase: "pre_execution" }), []],
    ["pre_execution", "a call missing its argument", { phase: "pre_execution", scope: "main", toolCall: { name: "nav_read", arguments: {} }, tools: [navRead], turn: nothingRan }, ["tool_schema_validation"]],
    ["post_inference", "that call at post_inference", { phase: "post_inference", scope: "main", toolCall: { name: "nav_read", arguments: {} }, tools: [navRead], turn: nothingRan }, []],
    ["post_execution", "a result holding a key", { phase: "post_execution", scope: "main", toolCall: { name: "nav_read", arguments: { target: "a" } }, toolResult: "key = AKIA2E0A8F3B244C9986", turn: nothingRan }, ["credential_redaction"]],
    ["post_inference", "that result at post_inference", { phase: "post_inference", scope: "main", toolResult: "key = AKIA2E0A8F3B244C9986", turn: nothingRan }, []],
  ] as const)("%s: %s", async (_phase, _label, input, hooks) => {
    const result = await validator().check(input as ValidationInput);
    expect(result.violations.map((violation) => violation.hook)).toEqual(hooks);
  });

  test("pre_execution: the correction lists each schema error and the tool's schema", async () => {
    const result = await validator({ tools: [navRead] }).check({ phase: "pre_execution", scope: "sub_session", toolCall: { name: "nav_read", arguments: { target: 7, lines: "1-3" } }, turn: nothingRan });
    expect(result.correction).toContain("- target must be string");
    expect(result.correction).toContain("- unknown argument 'lines'");
    expect(result.correction).toContain('"required": [\n    "target"\n  ]');
    expect(result.halt).toBe(true);
  });

  test("post_execution: secrets are masked in the result, and the model gets no correction for them", async () => {
    const result = await validator().check({ phase: "post_execution", scope: "main", toolCall: { name: "nav_read", arguments: {} }, toolResult: { text: 'token: "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"', lines: 1 }, turn: nothingRan });
    expect(result.toolResult).toEqual({ text: 'token: "[REDACTED GitHub token]"', lines: 1 });
    expect(result.correction).toBeUndefined();
  });
});

describe("scopes and flags", () => {
  test.each([
    ["a hook on in both scopes fires in a child session", {}, "sub_session", true],
    ["scope: main only keeps it out of child sessions", { empty_promise: { scope: "main" } }, "sub_session", false],
    ["scope: main only still fires in the main session", { empty_promise: { scope: ["main"] } }, "main", true],
    ["enabled: false turns it off", { empty_promise: { enabled: false } }, "main", false],
    ["false is short for enabled: false", { empty_promise: false }, "main", false],
  ] as const)("%s", async (_label, hooks, scope, fires) => {
    const result = await validator({ hooks }).check(promise({ scope }));
    expect(result.violations.some((violation) => violation.hook === "empty_promise")).toBe(fires);
  });

  test("haltInference and killOnDetect are carried on the violation and summed up in halt and discard", async () => {
    const plain = await validator().check(promise());
    expect([plain.halt, plain.discard]).toEqual([false, false]);
    const flagged = await validator({ hooks: { empty_promise: { haltInference: true, killOnDetect: true } } }).check(promise());
    expect(flagged.violations[0]).toMatchObject({ hook: "empty_promise", haltInference: true, killOnDetect: true });
    expect([flagged.halt, flagged.discard]).toEqual([true, true]);
  });

  test("tool_schema_validation is always on", async () => {
    const result = await validator({ hooks: { tool_schema_validation: false }, tools: [navRead] }).check({ phase: "pre_execution", scope: "main", toolCall: { name: "nav_read", arguments: {} }, turn: nothingRan });
    expect(result.violations.map((violation) => violation.hook)).toEqual(["tool_schema_validation"]);
  });

  test("an unknown hook name in the settings is an InvalidOptionsError naming the hooks", () => {
    expect(() => createValidator({ hooks: { empty_promis: false } })).toThrow(InvalidOptionsError);
    expect(() => createValidator({ hooks: { empty_promis: false } })).toThrow(/no validation hook named 'empty_promis'; the hooks are tool_schema_validation, phantom_tool_result/);
  });

  test("a suspected violation the ledger disproves is suppressed with the reason", async () => {
    const result = await validator().check(promise({ turn: { ...nothingRan, toolCalls: [{ name: "nav_read", arguments: {}, ok: true }] } }));
    expect(result.violations).toEqual([]);
    expect(result.suppressed).toEqual([{ hook: "empty_promise", reason: "1 tool call ran this turn" }]);
  });
});

describe("once per turn, never a loop", () => {
  test("a hook corrects once per turn; the same violation again in that turn is let through with a note", async () => {
    const checker = validator();
    const first = await checker.check(promise({ turnId: 4 }));
    expect(first.correction).toContain("You said you would do something");
    const second = await checker.check(promise({ turnId: 4 }));
    expect(second.violations).toEqual([]);
    expect(second.correction).toBeUndefined();
    expect(second.suppressed[0].reason).toMatch(/^already corrected once this turn; let through/);
    expect(second.notes).toContain("empty_promise fired again after its correction this turn; the reply was let through");
    expect((await checker.check(promise({ turnId: 5 }))).violations).toHaveLength(1);
    expect((await checker.check(promise({ turnId: 4, scope: "sub_session" }))).violations).toHaveLength(1);
  });

  test("a model that never fixes its reply gets one correction, however often it is asked again", async () => {
    const checker = validator();
    let corrections = 0;
    for (let attempt = 0; attempt < 6; attempt++) {
      const result = await checker.check(promise({ turnId: "turn-1" }));
      if (result.correction) corrections++;
      else break;
    }
    expect(corrections).toBe(1);
  });

  test("without a turnId every round is a turn of its own", async () => {
    const checker = validator();
    expect((await checker.check(promise())).violations).toHaveLength(1);
    expect((await checker.check(promise())).violations).toHaveLength(1);
  });
});

describe("custom hooks", () => {
  const override = { name: "empty_promise", phase: "post_inference", scope: ["main"], correctionTemplate: "- Do it now: {{reason}}" } as const;

  test("an array entry named like a built-in replaces it, keeping its detector", async () => {
    const checker = validator({ customHooks: [override] });
    const result = await checker.check(promise());
    expect(result.correction).toMatch(/^Before going on[\s\S]*- Do it now: the reply says "I'll check the retry policy next\."/);
    expect((await checker.check(promise({ scope: "sub_session" }))).violations).toEqual([]);
  });

  test("a file in the reference design's snake_case adds a hook reusing a built-in detector", async () => {
    const file = join(scratch(), "hooks.json");
    writeFileSync(file, JSON.stringify([{ name: "spawn_in_children", phase: "post_inference", scope: "sub_session", detection_prompt: "claims a spawn", validator_type: "programmatic", validator_fn_name: "validate_workflow_spawn", detector: "workflow_spawn", correction_template: "- No child was started: {{reason}}", kill_on_detect: true }]));
    const checker = validator({ customHooks: file, hooks: { workflow_spawn: false } });
    expect(checker.problems).toEqual([]);
    const result = await checker.check({ phase: "post_inference", scope: "sub_session", reply: "I've started a sub-session for each file.", turn: nothingRan });
    expect(result.violations.map((violation) => [violation.hook, violation.killOnDetect])).toEqual([["spawn_in_children", true]]);
    expect(result.correction).toContain("- No child was started:");
  });

  test.each([
    ["not JSON", "[{ name: 'x' ", /custom hooks file .*hooks\.json: .*JSON/],
    ["not an array", JSON.stringify({ name: "x" }), /expected a JSON array of hooks/],
    ["an entry without a phase", JSON.stringify([{ ...override, phase: undefined }]), /entry 0: phase:/],
    ["an unknown slot", JSON.stringify([{ ...override, correctionTemplate: "{{tool}}" }]), /correctionTemplate uses \{\{tool\}\}/],
    ["an unknown detector", JSON.stringify([{ ...override, name: "mine", detector: "nope" }]), /unknown detector 'nope'/],
  ])("a malformed file (%s) is reported and the built-ins are used", async (_label, text, problem) => {
    const file = join(scratch(), "hooks.json");
    writeFileSync(file, text);
    const checker = validator({ customHooks: file });
    expect(checker.problems.join("\n")).toMatch(problem);
    expect(checker.problems.at(-1)).toMatch(/using the built-in hooks$/);
    const result = await checker.check(promise());
    expect(result.correction).toContain("You said you would do something but your reply does not do it");
  });

  test("an entry replacing a built-in may leave out its correction: a file can turn a built-in off", async () => {
    const checker = validator({ customHooks: [{ name: "empty_promise", phase: "post_inference", scope: ["main", "sub_session"], enabled: false }] });
    expect(checker.problems).toEqual([]);
    expect((await checker.check(promise())).violations).toEqual([]);
    const kept = validator({ customHooks: [{ name: "empty_promise", phase: "post_inference", scope: "main", haltInference: true }] });
    expect((await kept.check(promise())).correction).toContain("You said you would do something");
    expect(validator({ customHooks: [{ name: "mine", phase: "post_inference", scope: "main", detector: "empty_promise" }] }).problems[0]).toMatch(/mine\): it needs a correctionTemplate/);
  });

  test("a missing file is reported too", () => {
    expect(validator({ customHooks: join(scratch(), "absent.json") }).problems[0]).toMatch(/ENOENT/);
  });
});

describe("the validator model", () => {
  const detection = (violations: unknown[]): string => JSON.stringify({ violations });

  test("one call detects every model-detected hook of the phase; the ledger still removes false positives", async () => {
    const model = new ScriptedModel([detection([{ hook: "empty_promise", reason: "promises a check" }, { hook: "phantom_tool_result", reason: "claims 3 matches" }, { hook: "not_a_hook", reason: "x" }])]);
    const result = await validator({ model }).check(promise({ turn: { ...nothingRan, outputSeen: [] }, reply: "I found 3 matches. I'll check the rest next." }));
    expect(model.requests).toHaveLength(1);
    const prompt = model.requests[0].messages[0].content;
    for (const hook of ["phantom_tool_result", "fabricated_output", "empty_promise", "workflow_spawn"]) expect(prompt).toContain(`- ${hook}: `);
    expect(prompt).not.toContain("- objective_completion:");
    expect(prompt).not.toContain("- repetition_loop:");
    expect(result.violations.map((violation) => [violation.hook, violation.detectedBy])).toEqual([["phantom_tool_result", "model"], ["empty_promise", "model"]]);
    const ran = await validator({ model: new ScriptedModel([detection([{ hook: "phantom_tool_result", reason: "claims 3 matches" }])]) }).check(promise({ reply: "I found 3 matches.", turn: { ...nothingRan, blocksRun: 1 } }));
    expect(ran.suppressed).toEqual([{ hook: "phantom_tool_result", reason: "1 block ran this turn; the data may come from it" }]);
  });

  test.each([
    ["prose", "Looks fine to me!"],
    ["the wrong shape", '{"problems": ["empty_promise"]}'],
    ["broken JSON", '{"violations": [{"hook": "empty_promise", '],
  ])("a validator that answers %s degrades the round to the deterministic detectors and says so", async (_label, garbage) => {
    const result = await validator({ model: new ScriptedModel([garbage]) }).check(promise());
    expect(result.violations.map((violation) => [violation.hook, violation.detectedBy])).toEqual([["empty_promise", "deterministic"]]);
    expect(result.notes[0]).toMatch(/^the validator model's reply (held no JSON object|did not have the asked shape).*; detection fell back to the deterministic detectors$/);
  });

  test("a validator call that fails degrades the round too", async () => {
    const result = await validator({ model: new ScriptedModel([() => Promise.reject(new Error("503"))]) }).check(promise());
    expect(result.violations.map((violation) => violation.hook)).toEqual(["empty_promise"]);
    expect(result.notes[0]).toBe("the validator model call failed: 503; detection fell back to the deterministic detectors");
  });

  const childAnswer = (extra: Partial<ValidationInput> = {}): ValidationInput => ({ phase: "post_inference", scope: "sub_session", reply: js('FINAL("chapter 1 is about retries")'), objective: "Summarise all four chapters.", turn: { ...nothingRan, blocksRun: 1 }, ...extra });

  test("objective_completion: a child's answer is judged against its objective by a dedicated call", async () => {
    const model = new ScriptedModel([detection([{ hook: "objective_completion", reason: "covers one chapter of four" }]), '{"violation": true, "reason": "only chapter 1 is summarised"}']);
    const result = await validator({ model }).check(childAnswer());
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1].messages[0].content).toContain("Objective:\nSummarise all four chapters.");
    expect(result.violations.map((violation) => violation.hook)).toEqual(["objective_completion"]);
    expect(result.correction).toContain("(only chapter 1 is summarised). The objective: Summarise all four chapters.");
  });

  test.each([
    ["rejects it", '{"violation": false, "reason": "all chapters covered"}', "all chapters covered", []],
    ["answers garbage", "yes", "the validator model's verdict could not be read; let through", ["the validator model's reply held no JSON object; objective_completion was let through unconfirmed"]],
  ])("objective_completion: when the verifying call %s, the answer goes through", async (_label, verdict, reason, notes) => {
    const model = new ScriptedModel([detection([{ hook: "objective_completion", reason: "maybe incomplete" }]), verdict]);
    const result = await validator({ model }).check(childAnswer());
    expect(result.violations).toEqual([]);
    expect(result.suppressed).toEqual([{ hook: "objective_completion", reason }]);
    expect(result.notes).toEqual(notes);
  });

  test("objective_completion needs a validator model: without one it is skipped, and says so", async () => {
    const result = await validator().check(childAnswer());
    expect(result.violations).toEqual([]);
    expect(result.notes).toContain("objective_completion skipped: it is detected only by a validator model, and there is none");
  });
});

describe("ungrounded_citation with a repository path", () => {
  test("the validator opens the nav tools on the folder and checks each citation", async () => {
    const result = await validator().check({ phase: "post_inference", scope: "main", answer: "`retryDelay` (src/retry.ts:16) doubles the delay; `loadConfig` is at src/config.ts:9.", repo: join(CORPUS_DIR, "repo"), turn: nothingRan });
    expect(result.violations.map((violation) => violation.hook)).toEqual(["ungrounded_citation"]);
    expect(result.correction).toContain("- src/retry.ts:16 does not contain `retryDelay` (line 16 is:");
    expect(result.correction).not.toContain("src/config.ts:9");
  });

  test("a secret file is not read to check a citation", async () => {
    const repo = scratch();
    writeFileSync(join(repo, ".env"), "API_KEY=abc\n");
    const result = await validator().check({ phase: "post_inference", scope: "main", answer: "`API_KEY` is set in .env:1.", repo, turn: nothingRan });
    expect(result.violations[0]?.reason).toMatch(/\.env:1: '\.env' may not be read/);
  });
});

describe("the interaction log", () => {
  test("every stage of every round is a row of interaction_log", async () => {
    const logDatabase = join(scratch(), "log", "validation.sqlite");
    const model = new ScriptedModel([JSON.stringify({ violations: [{ hook: "empty_promise", reason: "promises" }] }), "garbage"]);
    const checker = validator({ model, logDatabase, _internal: { now: () => new Date("2026-01-02T03:04:05Z") } });
    await checker.check(promise({ sessionId: "s1", turnId: 1 }));
    await checker.check(promise({ sessionId: "s1", turnId: 2 }));
    await checker.close();
    const database = new DatabaseSync(logDatabase);
    const rows = database.prepare("SELECT created_at, session_id, turn_id, phase, scope, stage, hook, raw_output, outcome FROM interaction_log ORDER BY id").all();
    database.close();
    expect(rows.map((row) => [row.turn_id, row.stage, row.hook, row.outcome])).toEqual([
      ["1", 1, null, "violation_detected"],
      ["1", 1, null, "ok"],
      ["1", 2, "empty_promise", "confirmed"],
      ["1", 3, null, "corrected"],
      ["2", 1, null, "degraded"],
      ["2", 1, null, "violation_detected"],
      ["2", 2, "empty_promise", "confirmed"],
      ["2", 3, null, "corrected"],
    ]);
    expect(rows[0]).toMatchObject({ created_at: "2026-01-02T03:04:05.000Z", session_id: "s1", phase: "post_inference", scope: "main", raw_output: JSON.stringify({ violations: [{ hook: "empty_promise", reason: "promises" }] }) });
    expect(rows[1].raw_output).toBe("{}");
    expect(rows[4].raw_output).toBe("garbage");
  });
});
