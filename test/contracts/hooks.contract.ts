/**
 * The hooks contract: what a composition of session hooks must do (order, `next()`
 * at most once, stopping, failures, checked entries). One suite, run against each
 * composer (`compose-hooks.test.ts`). Only the public API is used.
 */
import { describe, expect, test } from "vitest";
import { HookInvariantError, InvalidOptionsError, type HookContext, type HookMiddleware } from "../../src/index.ts";

/** A composer under test: the shape of `composeHooks`. */
export type ComposeHooks = (hooks: readonly HookMiddleware[]) => (context: HookContext) => Promise<void>;

/** A `before_answer` context that records what hooks do to it. */
export function recordingContext(answer = "42"): HookContext & { readonly actions: string[] } {
  const actions: string[] = [];
  return {
    point: "before_answer",
    answer,
    words: "",
    sessionId: "s1",
    depth: 0,
    scope: "main",
    iteration: 1,
    question: "q",
    protocol: "code",
    turn: { toolCalls: [], blocksRun: 0, outputSeen: [], subcallsStarted: 0, subcallsFailed: 0, childSessionsStarted: 0, budgetRefused: false },
    history: [],
    recentReplies: [],
    correct: (message) => actions.push(`correct:${message}`),
    veto: (reason) => actions.push(`veto:${reason}`),
    warn: (message) => actions.push(`warn:${message}`),
    discard: (reason) => actions.push(`discard:${reason}`),
    actions,
  };
}

/** Defines the whole contract suite for `compose`. */
export function hooksContract(compose: ComposeHooks): void {
  describe("order", () => {
    test("runs middleware onion-style: each before next() in order, each after next() in reverse", async () => {
      const seen: string[] = [];
      const hook = (name: string): HookMiddleware => async (_context, next) => {
        seen.push(`${name} in`);
        await next();
        seen.push(`${name} out`);
      };
      await compose([hook("a"), hook("b"), hook("c")])(recordingContext());
      expect(seen).toEqual(["a in", "b in", "c in", "c out", "b out", "a out"]);
    });

    test("a middleware that does not call next() stops the rest", async () => {
      const seen: string[] = [];
      await compose([() => void seen.push("a"), () => void seen.push("b")])(recordingContext());
      expect(seen).toEqual(["a"]);
    });

    test("no middleware resolves and does nothing", async () => {
      const context = recordingContext();
      await expect(compose([])(context)).resolves.toBeUndefined();
      expect(context.actions).toEqual([]);
    });
  });

  describe("what hooks do reaches the context", () => {
    test("veto, correct and warn are called on the context, in order", async () => {
      const context = recordingContext("");
      await compose([
        async (hook, next) => {
          hook.warn("looked");
          await next();
        },
        (hook) => {
          if (hook.point === "before_answer" && hook.answer === "") hook.veto("the answer is empty");
          hook.correct("answer with a number");
        },
      ])(context);
      expect(context.actions).toEqual(["warn:looked", "veto:the answer is empty", "correct:answer with a number"]);
    });

    test("a change made by an earlier hook is seen by a later one", async () => {
      const context: HookContext = { ...recordingContext(), point: "after_tool", call: { id: "c1", name: "lookup", arguments: {} }, result: { ok: true, value: "secret" } };
      let seen: unknown;
      await compose([
        async (hook, next) => {
          if (hook.point === "after_tool") hook.result = { ok: true, value: "[redacted]" };
          await next();
        },
        (hook) => {
          if (hook.point === "after_tool") seen = hook.result;
        },
      ])(context);
      expect(seen).toEqual({ ok: true, value: "[redacted]" });
    });
  });

  describe("invariants", () => {
    test.each([
      ["next() twice in a row", async (_context: HookContext, next: () => Promise<void>) => {
        await next();
        await next();
      }],
      ["next() twice, the second failure caught by the hook", async (_context: HookContext, next: () => Promise<void>) => {
        await next();
        await next().catch(() => undefined);
      }],
    ] as const)("%s rejects with HookInvariantError naming the middleware", async (_label, twice) => {
      const error = await compose([async (_c, next) => next(), twice])(recordingContext()).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(HookInvariantError);
      expect((error as HookInvariantError).name).toBe("HookInvariantError");
      expect((error as HookInvariantError).index).toBe(1);
      expect((error as Error).message).toMatch(/hook 1 called next\(\) more than once/);
    });

    test.each([
      ["a synchronous throw", () => {
        throw new Error("boom");
      }],
      ["a rejected promise", async () => {
        throw new Error("boom");
      }],
      ["a throw after next()", async (_context: HookContext, next: () => Promise<void>) => {
        await next();
        throw new Error("boom");
      }],
    ] as const)("%s in a middleware rejects the composed promise", async (_label, failing) => {
      await expect(compose([async (_c, next) => next(), failing])(recordingContext())).rejects.toThrow("boom");
    });

    test.each([
      ["a string", "veto"],
      ["null", null],
      ["an object with run", { run: () => undefined }],
      ["undefined", undefined],
    ] as const)("an entry that is %s is refused with a TypeError naming it, before anything runs", (_label, entry) => {
      let ran = false;
      const hooks = [() => void (ran = true), entry] as unknown as HookMiddleware[];
      let error: unknown;
      try {
        compose(hooks);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(TypeError);
      expect(error).toBeInstanceOf(InvalidOptionsError);
      expect((error as InvalidOptionsError).option).toBe("hooks[1]");
      expect((error as Error).message).toContain("hooks[1]");
      expect(ran).toBe(false);
    });
  });
}
