/**
 * When the sandbox has an isolate empty its young generation between blocks (sandbox/heap-check.ts): after a
 * block that took the isolate's CPU for long enough, and after the one that follows it; never after a run of short
 * ones, which make little (a thousand sessions of small blocks would pay for the collections for nothing).
 */
import { describe, expect, test } from "vitest";
import { COLLECT_AFTER_MS, collectWhileIdle } from "../../sandbox/heap-check.ts";
import type { Live } from "../../sandbox/live-isolate.ts";

// A live isolate as far as the decision needs one: its runtime's `collect`, counted.
function fakeLive(): { live: Live; collections: () => number } {
  let count = 0;
  const collect = { apply: () => ((count += 1), Promise.resolve(undefined)) };
  const live = { runtime: { collect }, collectAfterNext: false } as unknown as Live;
  return { live, collections: () => count };
}

describe("collectWhileIdle", () => {
  test.each([
    { label: "short blocks only", runs: [0.1, 0.5, 1], expected: [0, 0, 0] },
    { label: "a long block, then the block after it", runs: [COLLECT_AFTER_MS, 0.1, 0.1], expected: [1, 2, 2] },
    { label: "long blocks in a row, each and the one after the last", runs: [25, 30, 0.2, 0.2], expected: [1, 2, 3, 3] },
    { label: "a long block again later", runs: [0.1, 40, 0.1, 0.1, 12, 0.1], expected: [0, 1, 2, 2, 3, 4] },
  ])("$label", ({ runs, expected }) => {
    const { live, collections } = fakeLive();
    const seen = runs.map((ranMs) => {
      collectWhileIdle(live, ranMs);
      return collections();
    });
    expect(seen).toEqual(expected);
  });

  test("a collection that fails (the isolate went away) is let go", async () => {
    const live = { runtime: { collect: { apply: () => Promise.reject(new Error("disposed")) } }, collectAfterNext: false } as unknown as Live;
    expect(() => collectWhileIdle(live, 100)).not.toThrow();
    // The rejection is handled: nothing is left unhandled when the turn ends.
    await new Promise((resolve) => setImmediate(resolve));
  });
});

describe("the runtime's collect, in a real isolate", () => {
  test("has V8's collector, which guest code does not", async () => {
    const { createLive, releaseLive } = await import("../../sandbox/live-isolate.ts");
    const live = await createLive(128, 32, { output: () => true, final: () => undefined, callStart: () => undefined, lost: () => undefined });
    try {
      expect(await live.runtime.collect.apply(undefined, [], { result: { copy: true } })).toBe(true);
      expect(await live.context.eval("typeof gc")).toBe("undefined");
    } finally {
      releaseLive(live);
    }
  });
});
