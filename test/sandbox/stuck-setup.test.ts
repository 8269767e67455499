/**
 * Set-up calls between blocks (setGlobal, defineStub, exposeFunction,
 * setPersistentGlobal) on an in-process sandbox whose isolate a block left busy
 * for good: each is bounded, the isolate is written off as stuck and replaced, and
 * the next block is told. Run in a child process (test/support/stuck-setup-host.ts),
 * so a call that hangs fails this test in bounded time instead of hanging the run.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { exitWithin } from "../support/child-exit.ts";

const HOST = fileURLToPath(new URL("../support/stuck-setup-host.ts", import.meta.url));

interface CallReport {
  readonly blockError?: unknown;
  readonly setUpMs: number;
  readonly failure?: string;
  readonly next: { readonly output: string; readonly error?: { kind: string; name: string; message: string }; readonly reset: boolean };
  readonly after: unknown;
}

describe("set-up calls on an isolate that stopped answering between blocks", () => {
  it("are bounded: the isolate is replaced, the call takes effect, and the next block is told", { timeout: 30_000 }, async () => {
    const child = spawn(process.execPath, [HOST], { stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    // About 6 s with the bound (5 s for the stuck call); without it the calls never return.
    const exit = await exitWithin(child, 20_000, "the host whose set-up calls wait on a stuck isolate");
    expect(exit.code).toBe(0);
    const { stuck, calls } = JSON.parse(stdout.trim()) as { stuck: number; calls: Record<string, CallReport> };
    expect(stuck).toBe(4);
    // What each call leaves for the block after next: [kept, typeof injected, typeof stubbed, twice(21)].
    const after: Record<string, unknown> = {
      // A plain global goes with the isolate it was meant for: the block that would have used it does not run.
      setGlobal: ["first", "undefined", "undefined", "none"],
      defineStub: ["first", "undefined", "function", "none"],
      exposeFunction: ["first", "undefined", "undefined", 42],
      setPersistentGlobal: ["second", "undefined", "undefined", "none"],
    };
    expect(Object.keys(calls).sort()).toEqual(Object.keys(after).sort());
    for (const [name, report] of Object.entries(calls)) {
      expect(report.blockError, name).toBeUndefined();
      expect(report.failure, name).toBeUndefined();
      expect(report.setUpMs, name).toBeLessThan(10_000);
      expect(report.next, name).toMatchObject({ output: "", reset: true, error: { kind: "timeout", name: "SandboxLost" } });
      expect(report.next.error!.message, name).toMatch(/stopped answering after the previous block .* did not run/);
      expect(report.after, name).toEqual(after[name]);
    }
  });
});
