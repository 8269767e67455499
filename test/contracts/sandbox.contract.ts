/**
 * The Sandbox contract: what every backend must do, one suite run against each
 * (`isolate-sandbox.test.ts`, `process-sandbox.test.ts`). Only the public seam is used.
 */
import { afterEach, describe, expect, test as base } from "vitest";
import { MAX_FINAL_CHARS, MAX_VALUE_DEPTH, type ExecutionResult, type Sandbox, type SandboxFactory, type SandboxOptions } from "../../sandbox/index.ts";

const TIMEOUT_MS = 400;

/** Runs blocks in order and returns the last result, failing on an unexpected error in earlier ones. */
async function runAll(sandbox: Sandbox, blocks: string[]): Promise<ExecutionResult> {
  let result: ExecutionResult | undefined;
  for (const [index, block] of blocks.entries()) {
    result = await sandbox.execute(block);
    if (index < blocks.length - 1) expect(result.error, `block ${index + 1}: ${block}`).toBeUndefined();
  }
  return result!;
}

/** Defines the whole contract suite for the sandboxes `factory` makes. */
export function sandboxContract(factory: SandboxFactory): void {
  const opened: Sandbox[] = [];

  async function open(options: SandboxOptions = {}): Promise<Sandbox> {
    const sandbox = await factory.create({ timeoutMs: TIMEOUT_MS, memoryLimitMb: 32, ...options });
    opened.push(sandbox);
    return sandbox;
  }

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((sandbox) => sandbox.dispose()));
  });

  /** Each test gets a fresh sandbox with short limits. */
  const test = base.extend<{ sandbox: Sandbox }>({
    // eslint-disable-next-line no-empty-pattern
    sandbox: async ({}, use) => {
      await use(await open());
    },
  });

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

    test("set-up calls made at once on a new sandbox all take effect, each once", async () => {
      const sandbox = await open();
      // A new sandbox starts its isolate on first use: calls arriving together share that start.
      await Promise.all([
        sandbox.exposeFunction("a", () => "A"),
        sandbox.exposeFunction("b", () => "B"),
        sandbox.defineStub("c", "c is not available here"),
        sandbox.setPersistentGlobal("d", "D"),
      ]);
      const result = await sandbox.execute("let caught = ''\ntry { c() } catch (error) { caught = error.message }\nFINAL([await a(), await b(), caught, d].join(','))");
      expect(result.error).toBeUndefined();
      expect(result.final).toEqual({ value: "A,B,c is not available here,D" });
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

  describe("errors point at the model's own code", () => {
    test.for([
      { label: "runtime error on line 1 (column corrected for the wrapper)", code: "null.x", kind: "runtime", name: "TypeError", line: 1, column: 6 },
      { label: "runtime error on line 1 after a rewritten declaration", code: "const a = 1; a.b.c", kind: "runtime", name: "TypeError", line: 1, column: 18 },
      { label: "runtime error on a later line after a rewritten declaration on that line", code: "print(0)\nlet q = {}; q.r.s", kind: "runtime", name: "TypeError", line: 2, column: 17 },
      { label: "runtime error inside a declaration's initialiser", code: "const first = 1,\n  second = first.x.y", kind: "runtime", name: "TypeError", line: 2, column: 20 },
      { label: "runtime error after rewritten multi-line declarations", code: "const a = 1;\nlet {b} = {b: 2},\n  c = 3;\nundefinedName + 1", kind: "runtime", name: "ReferenceError", line: 4, column: 1 },
      { label: "error thrown inside a function points at the throw", code: "function f() {\n  throw new RangeError('bad')\n}\nf()", kind: "runtime", name: "RangeError", line: 2, column: 9 },
      { label: "error after an await", code: "await null;\n\nnull.y", kind: "runtime", name: "TypeError", line: 3, column: 6 },
      { label: "syntax error found by acorn", code: "const a = 1;\nconst = 2", kind: "syntax", name: "SyntaxError", line: 2, column: 7 },
    ])("$label", async ({ code, kind, name, line, column }, { sandbox }) => {
      const result = await sandbox.execute(code);
      expect(result.error).toMatchObject({ kind, name, line, column });
    });

    test("a thrown non-error value is described", async ({ sandbox }) => {
      const result = await sandbox.execute("throw {reason: 'nope'}");
      expect(result.error).toMatchObject({ kind: "runtime", name: "Uncaught", message: '{reason: "nope"}' });
    });

    test.for([
      { label: "runtime error", code: "null.x" },
      { label: "stack overflow", code: "function down() { down() } down()" },
      { label: "host function error", code: "await fail()" },
      { label: "error from a host path in a message", code: "throw new Error(String(new Error().stack))" },
    ])("messages carry no host paths or host frames ($label)", async ({ code }, { sandbox }) => {
      await sandbox.exposeFunction("fail", () => {
        throw new Error(`cannot open ${process.cwd()}/secret/file.txt at ${import.meta.url}`);
      });
      const result = await sandbox.execute(code);
      expect(result.error).toBeDefined();
      const text = JSON.stringify(result.error);
      expect(text).not.toContain(process.cwd());
      expect(text).not.toContain("file://");
      expect(text).not.toMatch(/node:|node_modules|isolated-vm|isolate-sandbox/);
    });
  });

  describe("no host objects are reachable", () => {
    test.for([
      { label: "process", code: "typeof process" },
      { label: "require", code: "typeof require" },
      { label: "module", code: "typeof module" },
      { label: "Buffer", code: "typeof Buffer" },
      { label: "setTimeout", code: "typeof setTimeout" },
      { label: "fetch", code: "typeof fetch" },
      { label: "WebAssembly", code: "typeof WebAssembly" },
      { label: "SharedArrayBuffer", code: "typeof SharedArrayBuffer" },
      { label: "Atomics", code: "typeof Atomics" },
      { label: "the output callback", code: "typeof __rlm_host_output" },
      { label: "the FINAL callback", code: "typeof __rlm_host_final" },
      { label: "the sync call callback", code: "typeof __rlm_host_call_sync" },
      { label: "the async call callback", code: "typeof __rlm_host_call_start" },
      { label: "the old runtime global", code: "typeof __rlm_rt" },
      { label: "process through the Function constructor", code: "globalThis.constructor.constructor('return typeof process')()" },
      { label: "process through an async function's constructor", code: "await (async () => {}).constructor('return typeof process')()" },
      { label: "process through print's constructor", code: "print.constructor('return typeof process')()" },
      { label: "process through a host function's result", code: "(await hostValue()).constructor.constructor('return typeof process')()" },
      { label: "process through a host function's promise", code: "hostValue().constructor.constructor('return typeof process')()" },
    ])("$label is undefined", async ({ code }, { sandbox }) => {
      await sandbox.exposeFunction("hostValue", async () => ({ a: 1 }));
      const result = await sandbox.execute(`FINAL(${code})`);
      expect(result.error).toBeUndefined();
      expect(result.final).toEqual({ value: "undefined" });
    });

    test.for([
      { label: "dynamic import()", code: "await import('node:fs')" },
      { label: "eval of require", code: "eval('require')('fs')" },
      { label: "Function returning process", code: "Function('return process')().exit(1)" },
    ])("$label fails inside the guest", async ({ code }, { sandbox }) => {
      const result = await sandbox.execute(code);
      expect(result.error?.kind).toBe("runtime");
      expect(result.final).toBeUndefined();
    });

    test("no global property holds an isolated-vm Reference, Callback or ExternalCopy", async ({ sandbox }) => {
      await sandbox.setPersistentGlobal("context", { big: [1, 2, 3] });
      await sandbox.setGlobal("injected", "value");
      await sandbox.defineStub("nav_read", "use const x = nav_read(...)");
      await sandbox.exposeFunction("tool", () => 1);
      const result = await sandbox.execute(
        // Methods only isolated-vm's handles have.
        "const markers = ['derefInto', 'copyInto', 'applySync', 'applySyncPromise', 'getSync'];\n" +
          "FINAL(Object.getOwnPropertyNames(globalThis).filter((key) => { try { const value = globalThis[key]; if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false; const names = Object.getOwnPropertyNames(value).concat(Object.getOwnPropertyNames(Object.getPrototypeOf(value) || {})); return names.some((name) => markers.includes(name)) } catch { return true } }))",
      );
      expect(result.final).toEqual({ value: [] });
    });

    test("the object that publishes functions is only the guest's own global object", async ({ sandbox }) => {
      const result = await sandbox.execute("function probe() {}\nFINAL(typeof __rlm_g === 'object' && __rlm_g === globalThis)");
      expect(result.final).toEqual({ value: true });
    });
  });

  describe("timeouts and recovery", () => {
    test.for([
      { label: "busy loop", code: "while (true) {}" },
      { label: "never-settling promise", code: "await new Promise(() => {})" },
      { label: "endless microtasks", code: "while (true) await null" },
      { label: "busy loop after an awaited async host call", code: "await hostSleep(5); while (true) {}" },
      { label: "busy loop while an async host call is pending", code: "hostSleep(5000); while (true) {}" },
      { label: "long built-in call", code: "'x'.repeat(2 ** 20).split('').sort((a, b) => { for (let i = 0; i < 1e4; i++); return 0 })" },
      { label: "getter in a thrown object's message", code: "throw { get message() { while (true) {} } }" },
    ])("$label is stopped, the isolate is reset and the sandbox keeps working", async ({ code }) => {
      const sandbox = await open();
      await sandbox.setPersistentGlobal("context", "the context");
      await sandbox.defineStub("nav_ls", "call nav_ls as const x = nav_ls(...)");
      await sandbox.exposeFunction("hostSleep", (ms) => new Promise((resolve) => setTimeout(() => resolve(ms), ms as number)));
      await sandbox.exposeFunction("hostAdd", (a, b) => (a as number) + (b as number));
      await sandbox.execute("const lost = 'value'");

      const started = performance.now();
      const stopped = await sandbox.execute(code);
      expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 2_000);
      expect(stopped.error).toMatchObject({ kind: "timeout", name: "TimeoutError" });
      expect(stopped.error?.message).toContain(`${TIMEOUT_MS} ms`);
      expect(stopped.reset).toBe(true);

      const after = await sandbox.execute(
        "print(typeof lost, context, await hostAdd(1, 2), await hostSleep(1)); try { nav_ls() } catch (e) { print(e.message) }",
      );
      expect(after.error).toBeUndefined();
      expect(after.reset).toBe(false);
      expect(after.output).toBe("undefined the context 3 1\ncall nav_ls as const x = nav_ls(...)\n");
    });

    test("time spent waiting on async host functions does not count against the timeout", async ({ sandbox }) => {
      await sandbox.exposeFunction("hostSleep", (ms) => new Promise((resolve) => setTimeout(() => resolve(ms), ms as number)));
      const result = await sandbox.execute(`for (let i = 0; i < 3; i++) await hostSleep(${TIMEOUT_MS}); FINAL('waited')`);
      expect(result.error).toBeUndefined();
      expect(result.final).toEqual({ value: "waited" });
      expect(result.hostWaitMs).toBeGreaterThanOrEqual(TIMEOUT_MS * 3 - 50);
    });

    test("total host wait is capped by maxHostWaitMs", async () => {
      const sandbox = await open({ maxHostWaitMs: 300 });
      await sandbox.exposeFunction("hostSleep", (ms) => new Promise((resolve) => setTimeout(() => resolve(ms), ms as number)));
      const result = await sandbox.execute("while (true) await hostSleep(20)");
      expect(result.error).toMatchObject({ kind: "timeout" });
      expect(result.error?.message).toMatch(/waited on host functions for more than 300 ms/);
      expect(result.reset).toBe(true);
    });

    test("reset() drops variables and keeps persistent globals, stubs and functions", async ({ sandbox }) => {
      await sandbox.setPersistentGlobal("context", [1, 2]);
      await sandbox.exposeFunction("one", () => 1);
      await sandbox.defineStub("nav_info", "teach");
      await sandbox.execute("const gone = 1");
      await sandbox.reset();
      const result = await sandbox.execute("FINAL([typeof gone, context, await one(), typeof nav_info])");
      expect(result.final).toEqual({ value: ["undefined", [1, 2], 1, "function"] });
    });
  });

  describe("memory limit", () => {
    // A dictionary that outgrows the heap in one allocation used to make V8 abort the
    // whole host process; the isolate is now written off and the block reported instead.
    test("a catastrophic out-of-memory in the isolate does not take the host down", async () => {
      const sandbox = await open({ timeoutMs: 10_000, memoryLimitMb: 16 });
      await sandbox.setPersistentGlobal("context", "kept");
      const result = await sandbox.execute("const o = {}; for (let i = 0; ; i++) o['k' + i] = [i, i, i]");
      expect(result.error?.kind).toBe("memory");
      expect(result.reset).toBe(true);
      expect((await sandbox.execute("FINAL(context)")).final).toEqual({ value: "kept" });
    });

    test.for([
      { label: "growing array of strings", code: "const keep = []; while (true) keep.push('x'.repeat(1e5) + keep.length)" },
      { label: "growing object", code: "const o = {}; for (let i = 0; ; i++) o['k' + i] = [i, i, i]" },
    ])("$label stops the block, resets the isolate and the next block works", async ({ code }) => {
      const sandbox = await open({ timeoutMs: 10_000, memoryLimitMb: 16 });
      await sandbox.setPersistentGlobal("context", "kept");
      await sandbox.execute("const lost = 1");
      const result = await sandbox.execute(code);
      expect(result.error?.kind).toBe("memory");
      expect(result.error?.message).toMatch(/memory limit of \d+ MB/);
      expect(result.reset).toBe(true);
      const after = await sandbox.execute("FINAL([typeof lost, context])");
      expect(after.final).toEqual({ value: ["undefined", "kept"] });
    });

    test("a block that keeps half the limit and leaves garbage behind keeps its variables", async () => {
      const sandbox = await open({ timeoutMs: 20_000, memoryLimitMb: 128 });
      // About 62 MB kept, then about as much made and dropped: uncollected garbage is not data kept.
      const kept = await sandbox.execute("globalThis.keep = []; for (let i = 0; i < 8; i++) keep.push(Array.from({ length: 1e6 }, (_, j) => j + 0.5)); print(keep.length)");
      const churn = await sandbox.execute('{ const tmp = Array.from({ length: 1e6 }, (_, i) => ({ i, s: "k" + i })); print(tmp.length) }');
      const after = await sandbox.execute("FINAL(keep.length)");
      expect([kept.error, churn.error, after.error]).toEqual([undefined, undefined, undefined]);
      expect(after.final).toEqual({ value: 8 });
    });

    test("large ArrayBuffers fail inside the guest instead of growing the host", async ({ sandbox }) => {
      const result = await sandbox.execute("const buffers = []; for (let i = 0; i < 100; i++) buffers.push(new ArrayBuffer(10 * 1024 * 1024))");
      expect(result.error?.kind === "memory" || result.error?.name === "RangeError").toBe(true);
      const after = await sandbox.execute("FINAL(1)");
      expect(after.final).toEqual({ value: 1 });
    });

    test.for([
      { label: "one large array kept in a global", code: "const big = new Array(3e7).fill(0)" },
      { label: "many large ArrayBuffers kept in a global", code: "const buffers = []; for (let i = 0; i < 64; i++) buffers.push(new ArrayBuffer(32 * 1024 * 1024))" },
    ])("$label cannot brick the sandbox: at most the next block is lost, then it answers again", async ({ code }) => {
      const sandbox = await open({ timeoutMs: 20_000, memoryLimitMb: 64 });
      await sandbox.setPersistentGlobal("context", "kept");
      const results = [await sandbox.execute(code), await sandbox.execute("FINAL(context)"), await sandbox.execute("FINAL(context)")];
      for (const result of results) expect(result.error?.kind ?? "none").not.toBe("syntax");
      expect(results[2].final).toEqual({ value: "kept" });
    });

    test("a persistent value that does not fit in its room is refused, and the sandbox keeps working", async () => {
      const sandbox = await open({ timeoutMs: 10_000, memoryLimitMb: 16 });
      await sandbox.setPersistentGlobal("context", "small");
      // A million empty arrays: 3 MB of JSON, over 40 MB in the heap.
      await expect(sandbox.setPersistentGlobal("context", Array.from({ length: 1e6 }, () => []))).rejects.toThrow(/'context' is too large/);
      const after = await sandbox.execute("FINAL(context)");
      expect(after.final).toEqual({ value: "small" });
    });

    test("a 50 MB string context loads and is usable", async () => {
      const sandbox = await open({ timeoutMs: 10_000 });
      const context = "abcdefghij".repeat(5 * 1024 * 1024 - 1) + "needle....";
      await sandbox.setPersistentGlobal("context", context);
      const result = await sandbox.execute("FINAL([context.length, context.indexOf('needle'), context.slice(0, 3)])");
      expect(result.error).toBeUndefined();
      expect(result.final).toEqual({ value: [context.length, context.length - 10, "abc"] });
      // The guest still has its own memory budget on top of the context.
      const work = await sandbox.execute("const words = context.slice(0, 1e6).split(''); FINAL(words.length)");
      expect(work.final).toEqual({ value: 1e6 });
    });
  });

  describe("values nested too deeply to cross the boundary", () => {
    const nest = (levels: number) => `let v = []; for (let i = 0; i < ${levels}; i++) v = [v];`;

    test.for([
      { label: "FINAL", code: `${nest(MAX_VALUE_DEPTH)} FINAL(v)`, message: `FINAL needs a JSON value nested at most ${MAX_VALUE_DEPTH} levels deep` },
      { label: "FINAL_VAR", code: `${nest(5000)} FINAL_VAR("v")`, message: `FINAL needs a JSON value nested at most ${MAX_VALUE_DEPTH} levels deep` },
      { label: "a host function", code: `${nest(5000)} await take(v)`, message: `take: arguments nested more than ${MAX_VALUE_DEPTH} levels deep are refused` },
    ])("$label refuses them in the block, and the host never receives them", async ({ code, message }, { sandbox }) => {
      const received: unknown[] = [];
      await sandbox.exposeFunction("take", async (value) => {
        received.push(value);
        return null;
      });
      const result = await sandbox.execute(code);
      expect(result.final).toBeUndefined();
      expect(result.error).toMatchObject({ kind: "runtime", message: expect.stringContaining(message) });
      expect(received).toEqual([]);
    });

    test("a value exactly at the limit, with brackets inside its strings, crosses", async ({ sandbox }) => {
      const result = await sandbox.execute(`${nest(MAX_VALUE_DEPTH - 2)} FINAL([v, "[[[[{{{{", "\\\"[["])`);
      expect(result.error).toBeUndefined();
      let depth = 0;
      for (let value = result.final?.value; Array.isArray(value); value = value[0]) depth++;
      expect(depth).toBe(MAX_VALUE_DEPTH);
    });
  });

  describe("exposed host functions", () => {
    test("host functions receive copies and return copies", async ({ sandbox }) => {
      const received: unknown[] = [];
      const shared = { n: 1 };
      await sandbox.exposeFunction("take", (value) => {
        received.push(value);
        return shared;
      });
      const result = await sandbox.execute("const arg = {list: [1, 'a']}; const got = await take(arg); arg.list.push(2); got.n = 99; FINAL([got, await take(undefined)])");
      expect(received).toEqual([{ list: [1, "a"] }, null]);
      expect(shared).toEqual({ n: 1 });
      expect(result.final).toEqual({ value: [{ n: 99 }, { n: 1 }] });
    });

    test("a __proto__ key from the guest does not pollute host prototypes", async ({ sandbox }) => {
      let received: Record<string, unknown> = {};
      await sandbox.exposeFunction("take", (value) => {
        received = value as Record<string, unknown>;
        return null;
      });
      await sandbox.execute("await take(JSON.parse('{\"__proto__\": {\"polluted\": true}}'))");
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.getPrototypeOf(received)).toBe(Object.prototype);
    });

    test.for([
      { label: "a function that throws", async: false },
      { label: "a function that rejects", async: true },
    ])("$label: host errors become guest errors with host paths redacted", async ({ async }, { sandbox }) => {
      await sandbox.exposeFunction(
        "broken",
        async
          ? async () => {
              throw new TypeError(`bad input near ${process.cwd()}/src/tool.ts:3:4`);
            }
          : () => {
              throw new TypeError(`bad input near ${process.cwd()}/src/tool.ts:3:4`);
            },
      );
      const result = await sandbox.execute("try { await broken() } catch (e) { FINAL([e instanceof Error, e.name, e.message]) }");
      expect(result.final?.value).toEqual([true, "TypeError", expect.stringContaining("bad input near")]);
      expect(JSON.stringify(result.final)).not.toContain(process.cwd());
    });

    test.for([
      { label: "thrown", async: false },
      { label: "rejected", async: true },
    ])("an uncaught host error ($label) points at the guest line that made the call", async ({ async }, { sandbox }) => {
      const fail = () => {
        throw new Error("no such chunk");
      };
      await sandbox.exposeFunction("broken", async ? async () => fail() : fail);
      const result = await sandbox.execute("const a = 1\n\nconst b = await broken(a)");
      expect(result.error).toMatchObject({ kind: "runtime", name: "Error", message: "no such chunk", line: 3, column: 17 });
    });

    test("several async calls are in flight at once", async ({ sandbox }) => {
      let active = 0;
      let peak = 0;
      await sandbox.exposeFunction(
        "slowEcho",
        async (value) => {
          active++;
          peak = Math.max(peak, active);
          await new Promise((resolve) => setTimeout(resolve, 50));
          active--;
          return value;
        },
      );
      const result = await sandbox.execute("FINAL(await Promise.all([1, 2, 3, 4].map((n) => slowEcho(n))))");
      expect(result.final).toEqual({ value: [1, 2, 3, 4] });
      expect(peak).toBe(4);
    });

    test("a result that arrives after its block ended runs at the start of the next block, under its watchdog", async ({ sandbox }) => {
      await sandbox.exposeFunction("later", (ms) => new Promise((resolve) => setTimeout(() => resolve(ms), ms as number)));
      const first = await sandbox.execute("later(30).then(() => { while (true) {} }); print('first done')");
      expect(first.output).toBe("first done\n");
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Guest code ran nowhere in between: the sandbox still answers immediately.
      const second = await sandbox.execute("print('second')");
      expect(second.error?.kind).toBe("timeout");
      const third = await sandbox.execute("print('third')");
      expect(third).toMatchObject({ output: "third\n", reset: false });
    });

    test("late results print into the block that is running when they arrive", async ({ sandbox }) => {
      await sandbox.exposeFunction("later", (ms) => new Promise((resolve) => setTimeout(() => resolve(ms), ms as number)));
      await sandbox.execute("later(20).then((v) => print('late', v))");
      await new Promise((resolve) => setTimeout(resolve, 60));
      const next = await sandbox.execute("print('now')");
      expect(next.output).toBe("late 20\nnow\n");
    });

    test("unknown names called through the runtime are refused", async ({ sandbox }) => {
      const result = await sandbox.execute("print.call(null, 1); FINAL(typeof globalThis.__rlm_host_call_sync)");
      expect(result.final).toEqual({ value: "undefined" });
    });

    test("stubs throw their teaching message however they are called", async ({ sandbox }) => {
      await sandbox.defineStub("nav_read", "call nav_read only as const x = nav_read(\"target\")");
      const result = await sandbox.execute("const messages = []; for (const call of [() => nav_read('a'), () => globalThis['nav_' + 'read'](), () => eval('nav_read()')]) { try { call() } catch (e) { messages.push(e.message) } } FINAL(messages)");
      expect(result.final).toEqual({ value: Array(3).fill('call nav_read only as const x = nav_read("target")') });
    });
  });

  describe("globals set by the host", () => {
    test("setGlobal copies the value and lives until the next reset", async ({ sandbox }) => {
      const value = { list: [1, 2] };
      await sandbox.setGlobal("injected", value);
      value.list.push(3);
      const result = await sandbox.execute("injected.list.push(9); FINAL(injected)");
      expect(result.final).toEqual({ value: { list: [1, 2, 9] } });
      expect(value.list).toEqual([1, 2, 3]);
      await sandbox.reset();
      expect((await sandbox.execute("FINAL(typeof injected)")).final).toEqual({ value: "undefined" });
    });

    test("a guest setter on a name the host sets later is not run by the host", async ({ sandbox }) => {
      await sandbox.execute("Object.defineProperty(globalThis, 'next_value', { configurable: true, set() { while (true) {} }, get() { return 'fake' } })");
      await sandbox.setGlobal("next_value", "real");
      expect((await sandbox.execute("FINAL(next_value)")).final).toEqual({ value: "real" });
    });

    test("a name the guest made read-only is reported to the host, not silently kept", async ({ sandbox }) => {
      await sandbox.execute("Object.defineProperty(globalThis, 'frozen_name', { value: 'fake', configurable: false, writable: false })");
      await expect(sandbox.setGlobal("frozen_name", "real")).rejects.toThrow(/read-only/);
    });

    test("a top-level declaration of the same name is overwritten by setGlobal", async ({ sandbox }) => {
      await sandbox.execute("var declared_first = 'guest'");
      await sandbox.setGlobal("declared_first", "host");
      expect((await sandbox.execute("FINAL(declared_first)")).final).toEqual({ value: "host" });
    });
  });

  describe("hostile guest code cannot poison later blocks", () => {
    test.for([
      { label: "Promise.prototype.then replaced", poison: "Promise.prototype.then = function () { return 'not json' }" },
      { label: "Object.prototype.then added", poison: "Object.prototype.then = function (resolve) { resolve('x') }" },
      { label: "JSON replaced", poison: "JSON.stringify = () => '{}'; JSON.parse = () => ({})" },
      { label: "String and Error replaced", poison: "String = () => ({}); Error = function () { return 1 }" },
      { label: "Object.defineProperty replaced", poison: "Object.defineProperty = () => { throw 1 }; Object.getOwnPropertyDescriptor = () => undefined" },
      { label: "Array.prototype methods replaced", poison: "Array.prototype.map = () => { throw new Error('map') }; Array.prototype.join = () => 5" },
    ])("$label: FINAL, errors and host calls still work", async ({ poison }, { sandbox }) => {
      await sandbox.exposeFunction("hostEcho", async (value) => value);
      const poisoned = await sandbox.execute(poison);
      expect(poisoned.error).toBeUndefined();
      const failing = await sandbox.execute("\nnull.x");
      expect(failing.error).toMatchObject({ kind: "runtime", name: "TypeError", line: 2 });
      await sandbox.setGlobal("injected", { a: 1 });
      const answer = await sandbox.execute("const echoed = await hostEcho(7)\nFINAL({echoed, injected})");
      expect(answer.error).toBeUndefined();
      expect(answer.final).toEqual({ value: { echoed: 7, injected: { a: 1 } } });
    });

    test("settling a fake host call from the guest is impossible", async ({ sandbox }) => {
      const result = await sandbox.execute("FINAL(Object.getOwnPropertyNames(globalThis).filter((k) => k.startsWith('__rlm')))");
      expect(result.final).toEqual({ value: [] });
    });

    test("execute refuses to run two blocks at once instead of mixing their output", async ({ sandbox }) => {
      const first = sandbox.execute("await null; print('one')");
      await expect(sandbox.execute("print('two')")).rejects.toThrow(/another block is still running/);
      expect((await first).output).toBe("one\n");
    });
  });

  describe("sandbox lifecycle", () => {
    test.for([
      { label: "timeoutMs", options: { timeoutMs: 0 } },
      { label: "memoryLimitMb", options: { memoryLimitMb: -1 } },
      { label: "maxOutputChars", options: { maxOutputChars: Number.NaN } },
      { label: "maxHostWaitMs", options: { maxHostWaitMs: Number.POSITIVE_INFINITY } },
    ])("rejects a non-positive or non-finite $label", async ({ options }) => {
      await expect(factory.create(options)).rejects.toThrow(RangeError);
    });

    test("a disposed sandbox says so", async () => {
      const sandbox = await open();
      await sandbox.dispose();
      await expect(sandbox.execute("1")).rejects.toThrow(/disposed/);
    });
  });
}
