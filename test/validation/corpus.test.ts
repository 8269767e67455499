import { describe, expect, test } from "vitest";
import { formatScores, loadCorpus, scoreCorpus, type HookScore } from "../support/validation-corpus.ts";

const PRECISION_FLOOR = 0.9;
const RECALL_FLOOR = 0.85;
const cases = loadCorpus();

describe("the labelled validation corpus", () => {
  test("has at least 120 cases, violations and look-alikes, in English, German, French and Spanish", () => {
    expect(cases.length).toBeGreaterThanOrEqual(120);
    expect(new Set(cases.map((item) => item.id)).size).toBe(cases.length);
    for (const hook of new Set(cases.map((item) => item.hook))) {
      const own = cases.filter((item) => item.hook === hook);
      expect(own.some((item) => item.violation), hook).toBe(true);
      expect(own.some((item) => !item.violation), hook).toBe(true);
      // Argument checks are language-free; every other hook is checked in all four languages.
      if (hook !== "tool_schema_validation") expect(new Set(own.map((item) => item.language)), hook).toEqual(new Set(["en", "de", "fr", "es"]));
    }
    expect(cases.filter((item) => item.source).length).toBeGreaterThanOrEqual(5);
  });

  test(`the deterministic detectors reach precision ≥ ${PRECISION_FLOOR} and recall ≥ ${RECALL_FLOOR} for every hook`, async () => {
    const scores = await scoreCorpus(cases);
    const below = scores.filter((score: HookScore) => score.precision < PRECISION_FLOOR || score.recall < RECALL_FLOOR);
    expect(below, `${formatScores(scores, cases)}\n${below.flatMap((score) => score.misses).join("\n")}`).toEqual([]);
    expect(scores.map((score) => score.hook).sort()).toEqual([
      "credential_redaction", "empty_promise", "fabricated_output", "final_after_failure", "phantom_tool_result",
      "repetition_loop", "tool_schema_validation", "ungrounded_citation", "workflow_spawn",
    ]);
  });
});
