/**
 * Sandbox contract: exposed host functions, globals set by the host, and the sandbox's lifecycle.
 */
import { describe, expect } from "vitest";
import { type ContractKit } from "./contract-kit.ts";

/** Exposed host functions, globals set by the host, and the sandbox's lifecycle. */
export function hostCalls({ open, test, factory }: ContractKit): void {
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
  });
}
