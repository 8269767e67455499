import { describe, expect, test } from "vitest";
import { BudgetTracker, DEFAULT_MAX_MODEL_CALLS, UsageLedger, type BudgetOptions } from "../../src/index.ts";

function tracker(budget: BudgetOptions, clock = { now: 0 }) {
  const ledger = new UsageLedger();
  const budgetTracker = new BudgetTracker({ budget, ledger, prices: { priced: { inputPerMillion: 1_000_000, outputPerMillion: 1_000_000 } }, now: () => clock.now });
  const spend = (promptTokens: number, completionTokens: number, model = "priced") =>
    ledger.record({ depth: 0, model, usage: { promptTokens, completionTokens }, costUsd: model === "priced" ? promptTokens + completionTokens : 0, priced: model === "priced" });
  return { budgetTracker, ledger, spend, clock };
}

describe("BudgetTracker.reserve", () => {
  test.each([
    // label, budget, spent before (prompt, completion), the next call's prompt estimate, expected limit or null
    ["no limits: always allowed", {}, [1e9, 1e9], 1e9, null],
    ["tokens: fits exactly", { maxTokens: 100 }, [40, 10], 50, null],
    ["tokens: one over", { maxTokens: 100 }, [40, 10], 51, "maxTokens"],
    ["cost: priced prompt would pass the limit", { maxCostUsd: 10 }, [4, 4], 3, "maxCostUsd"],
    ["cost: fits", { maxCostUsd: 10 }, [4, 4], 2, null],
  ] as const)("%s", (_label, budget, [prompt, completion], estimate, expected) => {
    const { budgetTracker, spend } = tracker(budget);
    spend(prompt, completion);
    const decision = budgetTracker.reserve({ model: "priced", promptTokens: estimate });
    expect(decision.ok ? null : decision.hit.limit).toBe(expected);
  });

  test("model calls in flight count, and finishing a reservation frees its slot", () => {
    const { budgetTracker, spend } = tracker({ maxModelCalls: 2 });
    const first = budgetTracker.reserve({ model: "m", promptTokens: 1 });
    const second = budgetTracker.reserve({ model: "m", promptTokens: 1 });
    expect(first.ok && second.ok).toBe(true);
    const third = budgetTracker.reserve({ model: "m", promptTokens: 1 });
    expect(third).toMatchObject({ ok: false, hit: { limit: "maxModelCalls", limitValue: 2, used: 0 } });
    if (first.ok) first.reservation.finish();
    spend(1, 1, "m");
    expect(budgetTracker.exhausted?.limit).toBe("maxModelCalls");
  });

  test.each([
    ["no budget given: the default of 500 model calls applies", {}, "maxModelCalls"],
    ["maxModelCalls: Infinity lifts the default", { maxModelCalls: Infinity }, null],
  ] as const)("%s", (_label, budget, expected) => {
    const { budgetTracker, spend } = tracker(budget);
    for (let call = 0; call < DEFAULT_MAX_MODEL_CALLS; call++) spend(1, 1, "m");
    const decision = budgetTracker.reserve({ model: "m", promptTokens: 1 });
    expect(decision.ok ? null : decision.hit.limit).toBe(expected);
    expect(budgetTracker.report(0).left.modelCalls).toBe(expected ? 0 : null);
  });

  test("the first refusal is sticky, but a forced call still starts", () => {
    const { budgetTracker } = tracker({ maxTokens: 10 });
    expect(budgetTracker.reserve({ model: "m", promptTokens: 11 }).ok).toBe(false);
    expect(budgetTracker.reserve({ model: "m", promptTokens: 1 })).toMatchObject({ ok: false, hit: { limit: "maxTokens" } });
    expect(budgetTracker.reserve({ model: "m", promptTokens: 1, force: true }).ok).toBe(true);
  });

  test("wall time: refused once maxWallMs has passed, and the message says so", () => {
    const clock = { now: 1000 };
    const { budgetTracker } = tracker({ maxWallMs: 500 }, clock);
    expect(budgetTracker.remainingWallMs()).toBe(500);
    clock.now = 1499;
    expect(budgetTracker.reserve({ model: "m", promptTokens: 1 }).ok).toBe(true);
    clock.now = 1500;
    const decision = budgetTracker.reserve({ model: "m", promptTokens: 1 });
    expect(decision.ok ? undefined : decision.hit.message).toMatchInlineSnapshot(`"budget exceeded (maxWallMs): the limit is 500 ms, 500 ms used. No more model calls can be made; answer with what you have."`);
  });

  test("the report shows used and left, null for unlimited limits, and unpriced models; model calls default to 500", () => {
    const { budgetTracker, spend } = tracker({ maxTokens: 1000, maxDepth: 3 });
    spend(100, 50);
    spend(10, 0, "local");
    expect(budgetTracker.report(2)).toEqual({
      used: { modelCalls: 2, tokens: 160, costUsd: 150, wallMs: 0 },
      left: { modelCalls: 498, tokens: 840, costUsd: null, wallMs: null },
      depth: 2,
      maxDepth: 3,
      exhausted: null,
      unpricedModels: ["local"],
    });
  });
});
