/**
 * Sandbox contract: REPL state across blocks, printed output, and FINAL / FINAL_VAR.
 */
import { describe, expect } from "vitest";
import { MAX_FINAL_CHARS } from "../../../sandbox/index.ts";
import { runAll, type ContractKit } from "./contract-kit.ts";

/** REPL state across blocks, printed output, and FINAL / FINAL_VAR. */
export function replOutputAndFinal({ open, test }: ContractKit): void {
  describe("REPL state across blocks", () => {
    test.for([
      { label: "const persists", blocks: ["const x = 41", "print(x + 1)"], output: "42\n" },
      { label: "let and var persist", blocks: ["let a = 1; var b = 2", "print(a + b)"], output: "3\n" },
      { label: "functions persist", blocks: ["function twice(n) { return n * 2 }", "print(twice(4))"], output: "8\n" },
      { label: "classes persist", blocks: ["class Point { constructor(x) { this.x = x } }", "print(new Point(3).x)"], output: "3\n" },
      { label: "const can be re-declared", blocks: ["const x = 1", "const x = 2", "print(x)"], output: "2\n" },
      { label: "let can be re-declared as const", blocks: ["let x = 1", "const x = 'two'", "print(x)"], output: "two\n" },
      { label: "function can be re-declared", blocks: ["function f() { return 1 }", "function f() { return 2 }", "print(f())"], output: "2\n" },
      { label: "class can be re-declared", blocks: ["class A { v() { return 1 } }", "class A { v() { return 2 } }", "print(new A().v())"], output: "2\n" },
      { label: "function can call a later block's const", blocks: ["function g() { return later }", "const later = 'ok'", "print(g())"], output: "ok\n" },
      { label: "object destructuring declares each name", blocks: ["const {a, b: [c, ...d]} = {a: 1, b: [2, 3, 4]}", "print(a, c, d)"], output: "1 2 [3, 4]\n" },
      { label: "array destructuring with defaults", blocks: ["const [p = 5, , q] = [undefined, 0, 7]", "print(p, q)"], output: "5 7\n" },
      { label: "let without initialiser resets to undefined", blocks: ["let v = 1", "let v", "print(v)"], output: "undefined\n" },
      { label: "var without initialiser keeps the value", blocks: ["var w = 1", "var w", "print(w)"], output: "1\n" },
      { label: "top-level await of a promise", blocks: ["const v = await Promise.resolve(7)", "print(v)"], output: "7\n" },
      { label: "top-level for-await", blocks: ["let s = 0; for await (const n of [1, 2, 3]) s += n", "print(s)"], output: "6\n" },
      { label: "block-scoped names stay local", blocks: ["if (true) { const hidden = 1 }", "print(typeof hidden)"], output: "undefined\n" },
    ])("$label", async ({ blocks, output }, { sandbox }) => {
      const result = await runAll(sandbox, blocks);
      expect(result.error).toBeUndefined();
      expect(result.output).toBe(output);
    });
  });

  describe("print and console", () => {
    test.for([
      { label: "strings print raw, values formatted", code: "print('a', 1, true, null, undefined, [1, 'b'], {k: 'v'})", output: 'a 1 true null undefined [1, "b"] {k: "v"}\n' },
      { label: "console methods all print", code: "console.log(1); console.info(2); console.warn(3); console.error(4)", output: "1\n2\n3\n4\n" },
      { label: "circular values", code: "const o = {}; o.self = o; print(o)", output: "{self: [Circular]}\n" },
      { label: "maps, sets, bigints, functions", code: "print(new Map([[1, 'a']]), new Set([2]), 3n, function named() {})", output: 'Map(1) {1 => "a"} Set(1) {2} 3n [Function named]\n' },
    ])("$label", async ({ code, output }, { sandbox }) => {
      const result = await sandbox.execute(code);
      expect(result.error).toBeUndefined();
      expect(result.output).toBe(output);
    });

    test("output over the cap is cut and flagged, and the next block starts with a fresh budget", async () => {
      const sandbox = await open({ maxOutputChars: 100 });
      const flooded = await sandbox.execute("for (let i = 0; i < 1e6; i++) print('0123456789')");
      expect(flooded.error).toBeUndefined();
      expect(flooded.outputTruncated).toBe(true);
      expect(flooded.output).toHaveLength(100);
      const next = await sandbox.execute("print('fresh')");
      expect(next).toMatchObject({ output: "fresh\n", outputTruncated: false });
    });

    test("print and console cannot be replaced", async ({ sandbox }) => {
      const result = await runAll(sandbox, [
        "try { print = () => {} } catch {} try { console.log = () => {} } catch {} const print = 1",
        "print('still here'); console.log('me too')",
      ]);
      expect(result.output).toBe("still here\nme too\n");
    });
  });

  describe("FINAL and FINAL_VAR", () => {
    test.for([
      { label: "a string", code: "FINAL('done')", value: "done" },
      { label: "the empty string is a valid answer", code: "FINAL('')", value: "" },
      { label: "zero", code: "FINAL(0)", value: 0 },
      { label: "false", code: "FINAL(false)", value: false },
      { label: "null", code: "FINAL(null)", value: null },
      { label: "an object", code: "FINAL({a: [1, {b: 'c'}]})", value: { a: [1, { b: "c" }] } },
      { label: "an awaited value", code: "FINAL(await Promise.resolve([1, 2]))", value: [1, 2] },
      { label: "FINAL_VAR with a top-level const", code: "const answer = {n: 3}\nFINAL_VAR('answer')", value: { n: 3 } },
      { label: "FINAL_VAR with the empty string", code: "let empty = ''\nFINAL_VAR('empty')", value: "" },
      { label: "FINAL inside a function", code: "function done() { FINAL('inner') }\ndone()", value: "inner" },
    ])("accepts $label", async ({ code, value }, { sandbox }) => {
      const result = await sandbox.execute(code);
      expect(result.error).toBeUndefined();
      expect(result.final).toEqual({ value });
    });

    test("FINAL_VAR sees a variable of an earlier block", async ({ sandbox }) => {
      const result = await runAll(sandbox, ["const kept = 'earlier'", "FINAL_VAR('kept')"]);
      expect(result.final).toEqual({ value: "earlier" });
    });

    test("FINAL ends the block at that point", async ({ sandbox }) => {
      const result = await sandbox.execute("print('before'); FINAL(1); print('after'); throw new Error('not reached')");
      expect(result).toMatchObject({ output: "before\n", final: { value: 1 } });
      expect(result.error).toBeUndefined();
    });

    test.for([
      { label: "no value", code: "FINAL()", message: /FINAL needs a value/ },
      { label: "undefined", code: "FINAL(undefined)", message: /FINAL needs a value/ },
      { label: "a function", code: "FINAL(() => 1)", message: /needs a JSON value/ },
      { label: "a symbol", code: "FINAL(Symbol('s'))", message: /needs a JSON value/ },
      { label: "a bigint", code: "FINAL(1n)", message: /needs a JSON value/ },
      { label: "NaN", code: "FINAL(NaN)", message: /needs a JSON value; NaN/ },
      { label: "a circular object", code: "const c = {}; c.c = c; FINAL(c)", message: /needs a JSON value/ },
      { label: "FINAL_VAR with a missing name", code: "FINAL_VAR('nothing_here')", message: /no top-level variable named 'nothing_here'/ },
      { label: "FINAL_VAR with a non-string", code: "FINAL_VAR(answer)", message: /answer is not defined|takes the variable's name/ },
      { label: "FINAL_VAR of a function-local variable", code: "function f() { const local = 1; FINAL_VAR('local') }\nf()", message: /no top-level variable named 'local'/ },
    ])("rejects $label as an error without an answer", async ({ code, message }, { sandbox }) => {
      const result = await sandbox.execute(code);
      expect(result.final).toBeUndefined();
      expect(result.error?.kind).toBe("runtime");
      expect(result.error?.message).toMatch(message);
    });

    test("an answer longer than MAX_FINAL_CHARS is refused in the block, so it never reaches the host", async () => {
      const sandbox = await open({ timeoutMs: 10_000, memoryLimitMb: 128 });
      const result = await sandbox.execute(`FINAL("a".repeat(${MAX_FINAL_CHARS}))`);
      expect(result.final).toBeUndefined();
      expect(result.error).toMatchObject({ kind: "runtime", message: expect.stringMatching(/characters of JSON, over the limit/) });
    });

    test("text that mentions FINAL is not an answer", async ({ sandbox }) => {
      const result = await sandbox.execute("const s = 'FINAL(42)'; print(s)\n// FINAL('comment')");
      expect(result.final).toBeUndefined();
      expect(result.output).toBe("FINAL(42)\n");
    });

    test("catching FINAL's signal keeps the first answer and silences the rest of the block", async ({ sandbox }) => {
      const result = await sandbox.execute("try { FINAL('first') } catch (signal) { print('caught') }\nprint('after'); FINAL('second')");
      expect(result.final).toEqual({ value: "first" });
      expect(result.output).toBe("");
      expect(result.error).toBeUndefined();
    });

    test("after a caught FINAL the block can no longer call host functions", async ({ sandbox }) => {
      const calls: unknown[] = [];
      await sandbox.exposeFunction("record", (value) => calls.push(value));
      const result = await sandbox.execute("try { FINAL(1) } catch {}\nawait record('late')");
      expect(calls).toEqual([]);
      expect(result.final).toEqual({ value: 1 });
      expect(result.error?.message).toMatch(/FINAL was already called/);
    });

    test("FINAL and FINAL_VAR cannot be replaced or shadowed for later blocks", async ({ sandbox }) => {
      const result = await runAll(sandbox, [
        "try { FINAL = () => {} } catch {}\ntry { Object.defineProperty(globalThis, 'FINAL', {value: () => {}}) } catch {}\nconst FINAL_VAR = 1",
        "FINAL('real')",
      ]);
      expect(result.final).toEqual({ value: "real" });
    });

    test("a FINAL in one block does not leak into the next", async ({ sandbox }) => {
      await sandbox.execute("FINAL(1)");
      const next = await sandbox.execute("print('next')");
      expect(next.final).toBeUndefined();
      expect(next.output).toBe("next\n");
    });
  });
}
