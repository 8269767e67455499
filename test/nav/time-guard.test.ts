import fs from "node:fs";
import { stripTypeScriptTypes } from "node:module";
import vm from "node:vm";
import { describe, expect, test } from "vitest";
import { GuardTimeout, TimeGuard } from "../../src/nav/time-guard.ts";

// O(2^n) backtracking on the line: far longer than any budget here.
const CATASTROPHIC = /^(\w+\s?)+:$/;
const LINE = `${"abcd ".repeat(30)}!`;

describe("TimeGuard", () => {
  test("returns what the work returns, and passes its errors on", () => {
    const guard = new TimeGuard(1000);
    expect(guard.run(() => [1, 2, 3].map((n) => n * 2))).toEqual([2, 4, 6]);
    expect(() => guard.run(() => JSON.parse("{"))).toThrow(SyntaxError);
  });

  test("stops a regular expression that backtracks catastrophically, and the thread goes on", () => {
    const guard = new TimeGuard(100);
    const started = performance.now();
    expect(() => guard.run(() => CATASTROPHIC.test(LINE))).toThrow(GuardTimeout);
    // Stopped by its budget, not by the backtracking's end (hours).
    expect(performance.now() - started).toBeLessThan(5000);
    expect(/retry/.test("a retry")).toBe(true);
    expect(new TimeGuard(1000).run(() => "after")).toBe("after");
  });

  test("the budget is for all runs together: once spent, a run is refused before it starts", () => {
    const guard = new TimeGuard(50);
    expect(() => guard.run(() => CATASTROPHIC.test(LINE))).toThrow(GuardTimeout);
    let ran = false;
    expect(() =>
      guard.run(() => {
        ran = true;
      }),
    ).toThrow(GuardTimeout);
    expect(ran).toBe(false);
  });

  test("works when its module was evaluated in a context other than the thread's main one, as a test runner's environment does", () => {
    const source = stripTypeScriptTypes(fs.readFileSync(new URL("../../src/nav/time-guard.ts", import.meta.url), "utf8"))
      .replace(/^import vm from "node:vm";/m, "")
      .replace(/^export /gm, "");
    const context = vm.createContext({ vm, performance });
    const { TimeGuard: Guard, GuardTimeout: Timeout } = vm.runInContext(`${source}\n;({ TimeGuard, GuardTimeout })`, context) as { TimeGuard: typeof TimeGuard; GuardTimeout: typeof GuardTimeout };
    expect(vm.runInContext("globalThis", context)).not.toBe(globalThis);
    expect(new Guard(1000).run(() => [1, 2].map((n) => n * 3))).toEqual([3, 6]);
    expect(() => new Guard(50).run(() => CATASTROPHIC.test(LINE))).toThrow(Timeout);
  });

  test("host work called from the guarded function is stopped too", () => {
    const guard = new TimeGuard(50);
    const spin = (): number => {
      let n = 0;
      for (;;) n++;
    };
    expect(() => guard.run(() => [1].map(() => spin()))).toThrow(GuardTimeout);
  });
});
