/**
 * What a process sandbox tells its next block when its worker went away between
 * blocks: nothing when there was nothing to lose, a SandboxLost error when a
 * block had run or a global (a tool result for the next block) had been set.
 */
import { afterEach, describe, expect, test } from "vitest";
import { createProcessSandboxFactory, type ProcessSandboxFactory } from "../../sandbox/index.ts";

let factory: ProcessSandboxFactory | undefined;
afterEach(async () => {
  await factory?.close();
  factory = undefined;
});

/** Kills the pool's only worker and waits until it is gone. */
async function killWorker(pool: ProcessSandboxFactory): Promise<void> {
  const [pid] = pool.workerPids();
  expect(pid).toBeGreaterThan(0);
  process.kill(pid!, "SIGKILL");
  for (let waited = 0; pool.workerPids().includes(pid!) && waited < 5_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(pool.workerPids()).not.toContain(pid);
}

describe("a worker lost between blocks", () => {
  test.for([
    { label: "a fresh sandbox with a persistent global: nothing lost, the block runs", setUp: "persist", lost: false },
    { label: "a global set for the next block: its loss is reported", setUp: "set", lost: true },
    { label: "after a block ran: its loss is reported", setUp: "block", lost: true },
  ] as const)("$label", { timeout: 20_000 }, async ({ setUp, lost }) => {
    factory = createProcessSandboxFactory({ workers: 1 });
    const sandbox = await factory.create({ timeoutMs: 5_000 });
    if (setUp === "persist") await sandbox.setPersistentGlobal("kept", 5);
    if (setUp === "set") await sandbox.setGlobal("injected", 5);
    if (setUp === "block") await sandbox.execute("const a = 1");
    await killWorker(factory);
    const result = await sandbox.execute("print(typeof kept, typeof injected)");
    if (lost) {
      expect(result.error).toMatchObject({ name: "SandboxLost" });
      expect(result.output).toBe("");
    } else {
      expect(result.error).toBeUndefined();
      expect(result.output).toBe("number undefined\n");
    }
    // Either way the sandbox works on, on a fresh worker, with its persistent globals.
    const next = await sandbox.execute("FINAL(1)");
    expect(next.final).toEqual({ value: 1 });
    await sandbox.dispose();
  });
});
