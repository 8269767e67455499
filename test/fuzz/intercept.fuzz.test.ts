import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { defineTool, interceptBlock, rewriteBlock, runSession, ScriptedModel, type SessionEvent } from "../../src/index.ts";
import { rewriteBlockMapped } from "../../src/intercept/intercept-block.ts";
import { parseGuest } from "../../sandbox/index.ts";
import { fuzzParameters, fuzzTimeout } from "./fuzz-settings.ts";
import { FUZZ_TOOLS, mutatedProgram, positionOf, program } from "./js-programs.ts";

const toolNames = new Set<string>(FUZZ_TOOLS);
const injectedNames = (count: number) => Array.from({ length: count }, (_, index) => `__rlm_fuzz_${index}`);

describe("the interceptor on generated blocks", () => {
  test(
    "accepts exactly the literal assignment-form calls, refuses every block with another use, and the rewrite re-parses",
    () => {
      fc.assert(
        fc.property(program, ({ code, calls, rejected }) => {
          const result = interceptBlock(code, toolNames);
          if (rejected) {
            expect(result.ok).toBe(false);
            return;
          }
          if (!result.ok) throw new Error(`refused an acceptable block:\n${code}\n${JSON.stringify(result.problems)}`);
          expect(result.calls.map(({ tool, args, target }) => ({ tool, args, target }))).toEqual(calls);
          const rewritten = rewriteBlock(code, result.calls, injectedNames(result.calls.length));
          expect(() => parseGuest(rewritten)).not.toThrow();
          expect(rewritten.split("\n").length).toBe(code.split("\n").length);
        }),
        fuzzParameters(0.2, 300),
      );
    },
    fuzzTimeout(0.2, 30_000),
  );

  test(
    "positions in the rewritten block map back exactly to the model's own",
    () => {
      fc.assert(
        fc.property(program, ({ code, markers }) => {
          const result = interceptBlock(code, toolNames);
          if (!result.ok) return;
          const block = rewriteBlockMapped(code, result.calls, injectedNames(result.calls.length));
          for (const marker of markers) {
            const there = positionOf(block.code, block.code.indexOf(marker));
            expect(block.toOriginal(there.line, there.column)).toEqual(positionOf(code, code.indexOf(marker)));
          }
          // A position inside an injected name maps to the start of the call it replaced.
          result.calls.forEach((call, index) => {
            const there = positionOf(block.code, block.code.indexOf(injectedNames(result.calls.length)[index]!));
            expect(block.toOriginal(there.line, there.column)).toEqual(positionOf(code, call.start));
          });
        }),
        fuzzParameters(0.2, 300),
      );
    },
    fuzzTimeout(0.2, 30_000),
  );

  test(
    "mutated blocks never throw: they are refused with located problems, or accepted and rewritten into code that parses",
    () => {
      fc.assert(
        fc.property(mutatedProgram, (code) => {
          const result = interceptBlock(code, toolNames);
          const lines = code.split(/\r\n?|\n|\u2028|\u2029/).length;
          if (!result.ok) {
            expect(result.problems.length).toBeGreaterThan(0);
            for (const problem of result.problems) {
              expect(problem.line).toBeGreaterThanOrEqual(1);
              expect(problem.line).toBeLessThanOrEqual(lines);
              expect(problem.column).toBeGreaterThanOrEqual(1);
            }
            return;
          }
          for (const call of result.calls) {
            expect(toolNames.has(call.tool)).toBe(true);
            expect(code.slice(call.start, call.end)).toContain(call.tool);
          }
          const rewritten = rewriteBlock(code, result.calls, injectedNames(result.calls.length));
          expect(() => parseGuest(rewritten)).not.toThrow();
        }),
        fuzzParameters(0.3, 500),
      );
    },
    fuzzTimeout(0.3, 30_000),
  );
});

describe("sessions on generated blocks", () => {
  test(
    "a refused block runs no host tool; an accepted one runs each of its calls once, in order, with its literal arguments",
    async () => {
      const runs: { tool: string; args: unknown }[] = [];
      const tools = FUZZ_TOOLS.map((name) =>
        defineTool({
          name,
          description: "Records its call.",
          parameters: { type: "object", properties: { a: {}, b: {}, c: {} } },
          handler: (args) => {
            runs.push({ tool: name, args });
            return { ok: true };
          },
        }),
      );
      await fc.assert(
        fc.asyncProperty(program, async ({ code, calls, rejected }) => {
          runs.length = 0;
          const events: SessionEvent[] = [];
          const model = new ScriptedModel(["```js\n" + code + "\n```", '```js\nFINAL("done")\n```']);
          const result = await runSession({ question: "q", model, tools, subcalls: false, sandbox: { timeoutMs: 2_000 }, onEvent: (event) => events.push(event) });
          expect(result.status).toBe("final");
          if (rejected) {
            expect(runs).toEqual([]);
            expect(events.some((event) => event.type === "intercept_rejected")).toBe(true);
          } else {
            expect(runs.map((run) => run.tool)).toEqual(calls.map((call) => call.tool));
            expect(runs.map((run) => run.args)).toEqual(calls.map((call) => Object.fromEntries(call.args.map((arg, index) => [["a", "b", "c"][index], arg]))));
          }
        }),
        fuzzParameters(0.2, 15),
      );
    },
    fuzzTimeout(0.2, 60_000),
  );
});
