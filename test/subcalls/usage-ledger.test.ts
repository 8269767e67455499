import { describe, expect, test } from "vitest";
import { UsageLedger } from "../../src/index.ts";

describe("UsageLedger", () => {
  test("a child's calls count in every ancestor; a parent's calls do not count in its child", () => {
    const root = new UsageLedger();
    const child = root.child();
    const grandchild = child.child();
    root.record({ depth: 0, model: "big", usage: { promptTokens: 100, completionTokens: 10 }, costUsd: 0.5, priced: true });
    grandchild.record({ depth: 2, model: "small", usage: { promptTokens: 7, completionTokens: 3 }, costUsd: 0, priced: false });
    expect(root.snapshot()).toEqual({
      promptTokens: 107,
      completionTokens: 13,
      modelCalls: 2,
      costUsd: 0.5,
      byDepth: { "0": { promptTokens: 100, completionTokens: 10, modelCalls: 1, costUsd: 0.5 }, "2": { promptTokens: 7, completionTokens: 3, modelCalls: 1, costUsd: 0 } },
      byModel: { big: { promptTokens: 100, completionTokens: 10, modelCalls: 1, costUsd: 0.5, priced: true }, small: { promptTokens: 7, completionTokens: 3, modelCalls: 1, costUsd: 0, priced: false } },
      unpricedModels: ["small"],
      costKnown: false,
      estimated: false,
    });
    expect(child.totals).toEqual({ promptTokens: 7, completionTokens: 3, modelCalls: 1, costUsd: 0 });
  });
});
