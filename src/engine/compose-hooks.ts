import { HookInvariantError } from "../core/errors/hook-invariant-error.ts";
import { InvalidOptionsError } from "../core/errors/invalid-options-error.ts";
import type { HookContext, HookMiddleware } from "./hooks.ts";

/**
 * Composes hook middleware into one function, onion-style: the first runs first and
 * reaches the next with `await next()`; one that returns without calling `next()`
 * stops the rest. The promise rejects when a middleware throws, and with a
 * `HookInvariantError` when one calls `next()` more than once (even if it caught
 * that). Every entry must be a function: a `TypeError` (`InvalidOptionsError`)
 * names the first that is not, before anything runs.
 *
 * @example
 * const run = composeHooks([
 *   async (context, next) => { context.warn("first"); await next(); },
 *   (context) => { if (context.point === "before_answer" && context.answer === "") context.veto("empty"); },
 * ]);
 * await run(context);
 */
export function composeHooks(hooks: readonly HookMiddleware[]): (context: HookContext) => Promise<void> {
  const middleware = [...hooks];
  middleware.forEach((hook, index) => {
    if (typeof hook !== "function") {
      const what = hook === null ? "null" : Array.isArray(hook) ? "an array" : typeof hook;
      throw new InvalidOptionsError({ option: `hooks[${index}]`, message: `composeHooks: hooks[${index}] is ${what}, not a function (context, next) => …` });
    }
  });
  return async (context) => {
    let reached = -1;
    let broken: HookInvariantError | undefined;
    const dispatch = async (index: number): Promise<void> => {
      if (index <= reached) {
        broken ??= new HookInvariantError({ index: index - 1, message: `hook ${index - 1} called next() more than once; call it at most once and await it` });
        throw broken;
      }
      reached = index;
      const hook = middleware[index];
      if (hook) await hook(context, () => dispatch(index + 1));
    };
    await dispatch(0);
    if (broken) throw broken;
  };
}
