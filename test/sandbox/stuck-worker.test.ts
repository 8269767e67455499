import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { processSandboxFactory } from "../../sandbox/process-pool.ts";
import { runSession, ScriptedModel, type SessionEvent } from "../../src/index.ts";
import { exitWithin } from "../support/child-exit.ts";
import { js } from "../support/scripted-replies.ts";

const STALLING_WORKER = fileURLToPath(new URL("../fixtures/sandbox/stalling-worker.ts", import.meta.url));
const HOST = fileURLToPath(new URL("../support/stuck-worker-host.ts", import.meta.url));

/** The process state letter from /proc (R, S, D, Z, ...), or undefined once the process is gone. */
function processState(pid: number): string | undefined {
  try {
    return /^State:\s+(\S)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  } catch {
    return undefined;
  }
}

describe("a sandbox worker that stops answering", () => {
  let dir: string;
  let claim: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "rlmkit-stall-"));
    claim = join(dir, "stall");
    writeFileSync(claim, "");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is stopped as stuck, and the session continues on a fresh worker", { timeout: 20_000 }, async () => {
    process.env.RLMKIT_TEST_STALL_CLAIM = claim;
    const factory = processSandboxFactory({ workers: 1, stallTimeoutMs: 1_000 }, STALLING_WORKER);
    try {
      const events: SessionEvent[] = [];
      const started = performance.now();
      const result = await runSession({
        question: "q",
        context: "abc",
        model: new ScriptedModel([js("FINAL(context.length * 2)")]),
        sandboxFactory: factory,
        subcalls: false,
        onEvent: (event) => void events.push(event),
      });
      // The stall happened (the claim was taken), and cost about the stall time, not forever.
      expect(existsSync(claim)).toBe(false);
      expect(performance.now() - started).toBeGreaterThan(900);
      expect(result.status).toBe("final");
      expect(result.answer).toBe(6);
      // Nothing was lost before the first block: the model is not told of a restart.
      expect(events.filter((event) => event.type === "sandbox_result").map((event) => (event as { error?: unknown }).error)).toEqual([undefined]);
    } finally {
      delete process.env.RLMKIT_TEST_STALL_CLAIM;
      await factory.close();
    }
  });

  it("does not outlive its host process", { timeout: 20_000 }, async () => {
    const child = spawn(process.execPath, [HOST], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, RLMKIT_TEST_STALL_CLAIM: claim } });
    let stdout = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const exit = await exitWithin(child, 15_000, "the host of a stuck worker");
    expect(exit.code).toBe(0);
    const { pids } = JSON.parse(stdout.trim()) as { pids: number[] };
    expect(pids).toHaveLength(1);
    // Killed with the host: gone (or at most a zombie waiting to be reaped), never running or sleeping.
    const deadline = performance.now() + 3_000;
    while (performance.now() < deadline && !["Z", undefined].includes(processState(pids[0]!))) await new Promise((resolve) => setTimeout(resolve, 50));
    const state = processState(pids[0]!);
    if (state !== undefined) process.kill(pids[0]!, "SIGKILL");
    expect([undefined, "Z"]).toContain(state);
  });
});
