/**
 * Sandbox contract: error positions, what guest code can reach, and hostile code that tries to poison later blocks.
 */
import { describe, expect } from "vitest";
import { type ContractKit } from "./contract-kit.ts";

/** Error positions, what guest code can reach, and hostile code that tries to poison later blocks. */
export function errorsAndReach({ open, test }: ContractKit): void {
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

    test("a block acorn parses and V8 refuses is a SyntaxError, and nothing of it ran or was declared", async ({ sandbox }) => {
      // More arguments in one call than V8 takes: acorn has no such limit.
      const refused = await sandbox.execute(`const k = 1\nprint("ran")\nMath.max(${"0,".repeat(70_000)}0)`);
      expect(refused.error).toMatchObject({ kind: "syntax", name: "SyntaxError" });
      expect(refused.error!.message).toMatch(/too many arguments/i);
      expect(refused.output).toBe("");
      const after = await sandbox.execute("print(typeof k)");
      expect(after.output).toBe("undefined\n");
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

    // A block V8 refuses to compile after acorn parsed it: the runtime reads what V8 threw without running guest code.
    const refused = `const k = 1\nMath.max(${"0,".repeat(70_000)}0)`;
    test.for([
      { label: "Promise.resolve replaced", poison: "Promise.resolve = () => { throw new Error('resolve') }" },
      { label: "a getter on SyntaxError's name that answers", poison: "Object.defineProperty(SyntaxError.prototype, 'name', { get() { FINAL('hijacked'); return 'X' } })" },
      { label: "Error.prepareStackTrace that answers", poison: "Error.prepareStackTrace = () => FINAL('hijacked')" },
      { label: "a throwing setter on Object.prototype", poison: "Object.defineProperty(Object.prototype, 'compile', { set() { throw new Error('set') }, configurable: true })" },
      { label: "Object.prototype.toJSON", poison: "Object.prototype.toJSON = () => ({ name: 'Spoofed', message: 'm', stack: '' })" },
      { label: "the array iterator replaced", poison: "Array.prototype[Symbol.iterator] = function* () { FINAL('hijacked') }" },
    ])("$label: a block that does not compile is still told so, and nothing of it ran", async ({ poison }, { sandbox }) => {
      expect((await sandbox.execute(poison)).error).toBeUndefined();
      const result = await sandbox.execute(refused);
      expect(result.error).toMatchObject({ kind: "syntax", name: "SyntaxError" });
      expect(result.error!.message).toMatch(/too many arguments/i);
      expect(result.final).toBeUndefined();
      expect((await sandbox.execute("print(typeof k)")).output).toBe("undefined\n");
    });

    test("a block that does not compile is told so while an earlier block's FinalizationRegistry callbacks leave rejections unhandled", async () => {
      const sandbox = await open({ timeoutMs: 10_000, memoryLimitMb: 64 });
      // Callbacks that each leave a rejection unhandled, which isolated-vm counts against the call that runs when they do.
      const callbacks = await sandbox.execute(
        "globalThis.frs = []; for (let r = 0; r < 300; r++) { const fr = new FinalizationRegistry(() => { const e = Date.now() + 5; while (Date.now() < e); Promise.reject(new Error('from a callback')) }); frs.push(fr); (() => fr.register({ r }, r))() } { let big = []; for (let k = 0; k < 2; k++) { big = []; for (let i = 0; i < 20; i++) big.push(new Array(1e5).fill(i + 0.5)) } }",
      );
      expect(callbacks.error?.kind ?? "runtime").toBe("runtime");
      const result = await sandbox.execute(`const k = 1\n${`Math.max(${"0,".repeat(70_000)}0)\n`.repeat(3)}`);
      expect(result.error).toMatchObject({ kind: "syntax", name: "SyntaxError" });
      // Nothing of it was declared: a later block does not see `k` (once the callbacks' rejections have run out).
      let after = await sandbox.execute("print(typeof k)");
      for (let attempt = 0; attempt < 20 && after.error?.message === "from a callback"; attempt++) after = await sandbox.execute("print(typeof k)");
      expect(after.output).toBe("undefined\n");
    });

    test("a failing block cannot pass itself off as one that did not compile, so its functions see later blocks' values", async ({ sandbox }) => {
      const spoofed = await sandbox.execute(
        "function f() { return x }\nvar x = 0\nObject.prototype.toJSON = () => ({ name: 'SyntaxError', message: 'm', stack: '', compile: true })\nthrow 1",
      );
      expect(spoofed.error).toMatchObject({ kind: "runtime" });
      const after = await sandbox.execute("delete Object.prototype.toJSON\nlet x = 0\nfor (let i = 0; i < 3; i++) { x++; print(f()) }");
      expect(after.output).toBe("1\n2\n3\n");
    });

    test("a block longer than isolated-vm compiles from a string is compiled as a script, and runs", async () => {
      // The contract's sandboxes have a 32 MB limit: isolated-vm compiles no string over 4 Mi characters in them.
      const sandbox = await open({ timeoutMs: 10_000 });
      const long = await sandbox.execute(`// ${"a".repeat(4_300_000)}\nconst big = 1\nprint("ran")`);
      expect(long.error).toBeUndefined();
      expect(long.output).toBe("ran\n");
      expect((await sandbox.execute("print(big)")).output).toBe("1\n");
      const broken = await sandbox.execute(`// ${"a".repeat(4_300_000)}\nMath.max(${"0,".repeat(70_000)}0)`);
      expect(broken.error).toMatchObject({ kind: "syntax", name: "SyntaxError" });
      // A limit that is no whole number: isolated-vm keeps whole megabytes, and so does the length the host compares with.
      const fractional = await open({ timeoutMs: 10_000, memoryLimitMb: 32.5 });
      await fractional.setPersistentGlobal("small", { a: 1 });
      const justOver = await fractional.execute(`// ${"a".repeat(4_200_000)}\nvar kept = 1\nprint("ran")`);
      expect(justOver.error).toBeUndefined();
      expect(justOver.output).toBe("ran\n");
      // A persistent value set again at the size it had fits the isolate's limit: the isolate, and what its blocks kept, stay.
      await fractional.setPersistentGlobal("small", { a: 2 });
      expect((await fractional.execute("print(kept, small.a)")).output).toBe("1 2\n");
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
}
