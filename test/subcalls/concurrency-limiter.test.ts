import { describe, expect, test } from "vitest";
import { createConcurrencyLimiter } from "../../src/index.ts";

describe("createConcurrencyLimiter", () => {
  test("never runs more than the limit, starts waiting tasks in order, and survives rejections", async () => {
    const limiter = createConcurrencyLimiter(2);
    const started: number[] = [];
    let most = 0;
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, index) =>
        limiter.run(async () => {
          started.push(index);
          most = Math.max(most, limiter.active);
          await new Promise((resolve) => setTimeout(resolve, 5));
          if (index === 1) throw new Error("task 1 failed");
          return index;
        }),
      ),
    );
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled", "fulfilled", "fulfilled"]);
    expect(limiter.active).toBe(0);
  });

  test("a waiting task whose signal aborts leaves the queue without running; the tasks behind it still run", async () => {
    const limiter = createConcurrencyLimiter(1);
    let release = () => {};
    const first = limiter.run(() => new Promise<string>((resolve) => (release = () => resolve("first"))));
    const controller = new AbortController();
    const ran: string[] = [];
    const second = limiter.run(async () => {
      ran.push("second");
      return "second";
    }, controller.signal);
    const third = limiter.run(async () => {
      ran.push("third");
      return "third";
    });
    controller.abort(new Error("the block ended"));
    await expect(second).rejects.toThrow("the block ended");
    release();
    expect(await Promise.all([first, third])).toEqual(["first", "third"]);
    expect(ran).toEqual(["third"]);
    expect(limiter.active).toBe(0);
  });

  test.each([0, -1, 1.5])("rejects a limit of %s", (limit) => {
    expect(() => createConcurrencyLimiter(limit)).toThrow(/positive integer/);
  });
});
