/**
 * Sandbox contract: time and memory limits, recovery, and values nested too deeply to cross the boundary.
 */
import { describe, expect } from "vitest";
import { MAX_VALUE_DEPTH } from "../../../sandbox/index.ts";
import { TIMEOUT_MS, type ContractKit } from "./contract-kit.ts";

/** Keeps about 96 MB of doubles in a global: more than a 64 MB sandbox may keep. */
const KEEP = "globalThis.keep = []; for (let i = 0; i < 12; i++) keep.push(Array.from({ length: 1e6 }, (_, j) => j + 0.5))";

/** Time and memory limits, recovery, and values nested too deeply to cross the boundary. */
export function limits({ open, test }: ContractKit): void {
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

    test.for([
      { label: "in one run", code: KEEP },
      { label: "after awaiting a host function", code: `await later(5); ${KEEP}` },
      // The run ends in its first task; the host function's result arrives while it still runs, and its callback runs after it.
      { label: "in a host function's callback", code: "later(0).then(() => { globalThis.keep = [new ArrayBuffer(50 * 2 ** 20), new Array(2e6).fill(0.5)] }); const end = Date.now() + 500; while (Date.now() < end);" },
      // The collection the failed allocation forces finds the registered object dead; its callback runs in a task of its own.
      {
        label: "in a FinalizationRegistry callback",
        code: "const fr = new FinalizationRegistry(() => { globalThis.keep = [new ArrayBuffer(50 * 2 ** 20), new Array(2e6).fill(0.5)] }); (() => fr.register({}, 0))(); globalThis.fr = fr; try { new ArrayBuffer(200 * 2 ** 20) } catch {}",
      },
      // The callback's rejection fails the next call into the isolate, the heap read among them.
      {
        label: "while a FinalizationRegistry callback leaves a rejection unhandled",
        code: `globalThis.fr = new FinalizationRegistry(() => { Promise.reject(new Error("from the callback")) }); for (let i = 0; i < 100; i++) fr.register({ i }, i); ${KEEP}`,
      },
      // Fifty of them, each callback busy for 20 ms: the reads fail for about a second.
      {
        label: "while many FinalizationRegistry callbacks leave rejections unhandled",
        code: `globalThis.frs = []; for (let r = 0; r < 50; r++) { const fr = new FinalizationRegistry(() => { const e = Date.now() + 20; while (Date.now() < e); Promise.reject(new Error("from a callback")) }); frs.push(fr); (() => fr.register({ r }, r))() } ${KEEP}`,
      },
      { label: "and then throws", code: `${KEEP}; throw new Error("thrown after keeping")`, also: "thrown after keeping" },
      { label: "and leaves a rejection unhandled", code: `globalThis.rejected = Promise.reject(new Error("left unhandled")); ${KEEP}`, also: "left unhandled" },
    ])("a block that keeps more than the limit $label is told so itself, and the next block runs", async ({ code, also }: { code: string; also?: string }) => {
      const sandbox = await open({ timeoutMs: 20_000, memoryLimitMb: 64 });
      await sandbox.exposeFunction("later", (ms) => new Promise((resolve) => setTimeout(() => resolve(ms), ms as number)));
      const result = await sandbox.execute(code);
      expect(result.error?.kind).toBe("memory");
      expect(result.error?.message).toMatch(/memory limit of \d+ MB/);
      // A block that failed too is told both.
      if (also) expect(result.error?.message).toContain(also);
      expect((await sandbox.execute("FINAL(1)")).final).toEqual({ value: 1 });
    });

    test("a block that awaits an earlier block's host call, then keeps more than the limit, is told so itself", async () => {
      const sandbox = await open({ timeoutMs: 20_000, memoryLimitMb: 64 });
      await sandbox.exposeFunction("later", (ms) => new Promise((resolve) => setTimeout(() => resolve(ms), ms as number)));
      expect((await sandbox.execute("globalThis.pending = later(200)")).error).toBeUndefined();
      // This block starts no host call of its own; its run ends in the task that delivers the earlier call's result.
      const result = await sandbox.execute(`await pending; ${KEEP}`);
      expect(result.error?.kind).toBe("memory");
      expect((await sandbox.execute("FINAL(1)")).final).toEqual({ value: 1 });
    });

    test("a block during which an earlier block's host call settles, and its callback keeps more than the limit, is told so itself", async () => {
      const sandbox = await open({ timeoutMs: 20_000, memoryLimitMb: 64 });
      await sandbox.exposeFunction("later", (ms) => new Promise((resolve) => setTimeout(() => resolve(ms), ms as number)));
      const started = await sandbox.execute(`later(100).then(() => { ${KEEP} }); 0`);
      expect(started.error).toBeUndefined();
      // This block starts nothing; the earlier call's result arrives while it runs, and its callback runs after its run.
      const busy = await sandbox.execute("const end = Date.now() + 400; while (Date.now() < end);");
      expect(busy.error?.kind).toBe("memory");
      expect((await sandbox.execute("FINAL(1)")).final).toEqual({ value: 1 });
    });

    test("a block whose body goes on after a rejection it left unhandled is still watched and heard until it ends", async () => {
      const sandbox = await open({ timeoutMs: 1_000 });
      // Its result comes after the run failed, so only waiting for the body hears what follows the await.
      await sandbox.exposeFunction("now", () => new Promise((resolve) => setTimeout(() => resolve(Date.now()), 50)));
      const ended = await sandbox.execute('globalThis.left = Promise.reject(new Error("left unhandled")); await now(); print("went on")');
      expect(ended.error?.kind).toBe("runtime");
      expect(ended.error?.message).toContain("left unhandled");
      expect(ended.output).toContain("went on");
      // The same body, busy past the time limit after the await: the watchdog stops it.
      const busy = await sandbox.execute('globalThis.left = Promise.reject(new Error("left unhandled")); await now(); const end = Date.now() + 8000; while (Date.now() < end);');
      expect(busy.error?.kind).toBe("timeout");
      expect((await sandbox.execute("FINAL(1)")).final).toEqual({ value: 1 });
    });

    // Each block leaves a rejection unhandled (isolated-vm fails its run for the host) and then waits for ever: it must time out itself.
    test.for([
      {
        label: "a getter on Promise.prototype.constructor that throws once armed",
        code: 'Object.defineProperty(Promise.prototype, "constructor", { configurable: true, get() { if (globalThis.armed) throw new Error("tampered"); return Promise } }); Promise.reject(new Error("left unhandled")); await { then() { globalThis.armed = true } };',
      },
      {
        label: "a getter on Promise.prototype.constructor that always throws",
        code: 'Object.defineProperty(Promise.prototype, "constructor", { configurable: true, get() { throw new Error("tampered") } }); Promise.reject(new Error("left unhandled")); await { then() {} };',
      },
      {
        label: "many FinalizationRegistry callbacks that leave rejections unhandled",
        code: 'globalThis.frs = []; for (let r = 0; r < 200; r++) { const fr = new FinalizationRegistry(() => { const e = Date.now() + 10; while (Date.now() < e); Promise.reject(new Error("from a callback")) }); frs.push(fr); (() => fr.register({ r }, r))() } { let big = []; for (let k = 0; k < 3; k++) { big = []; for (let i = 0; i < 40; i++) big.push(new Array(1e5).fill(i + 0.5)) } } Promise.reject(new Error("left unhandled")); await slow(300); print("went on"); while (true);',
      },
      {
        label: "a FinalizationRegistry callback that leaves a rejection unhandled",
        code: 'globalThis.fr = new FinalizationRegistry(() => { Promise.reject(new Error("from the callback")) }); for (let i = 0; i < 100; i++) fr.register({ i }, i); { let big = []; for (let k = 0; k < 3; k++) { big = []; for (let i = 0; i < 40; i++) big.push(new Array(1e5).fill(i + 0.5)) } } Promise.reject(new Error("left unhandled")); await slow(300); print("went on"); while (true);',
      },
    ])("a block whose body goes on cannot end the host's wait for it early with $label", async ({ code }) => {
      const sandbox = await open({ timeoutMs: 1_500 });
      await sandbox.exposeFunction("slow", (ms) => new Promise((resolve) => setTimeout(() => resolve(ms), ms as number)));
      const result = await sandbox.execute(code);
      expect(result.error?.kind).toBe("timeout");
      const next = await sandbox.execute('Promise.reject(new Error("next")); print("next ran")');
      expect([next.error?.kind, next.error?.message, next.output]).toEqual(["runtime", "next", "next ran\n"]);
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
}
