/**
 * A host whose only sandbox worker wedges (see test/fixtures/sandbox/stalling-worker.ts)
 * and is given all the time in the world: it prints the stuck worker's process id as
 * a JSON line once the worker is stuck, then exits, leaving the caller to check that
 * the worker did not outlive it.
 *
 * Usage: RLMKIT_TEST_STALL_CLAIM=<file> node test/support/stuck-worker-host.ts
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { processSandboxFactory } from "../../sandbox/process-pool.ts";
import { runSession, ScriptedModel } from "../../src/index.ts";
import { js } from "./scripted-replies.ts";

const STALLING_WORKER = fileURLToPath(new URL("../fixtures/sandbox/stalling-worker.ts", import.meta.url));
const factory = processSandboxFactory({ workers: 1, stallTimeoutMs: 600_000 }, STALLING_WORKER);
void runSession({ question: "q", context: "abc", model: new ScriptedModel([js("FINAL(1)")]), sandboxFactory: factory, subcalls: false });
while (existsSync(process.env.RLMKIT_TEST_STALL_CLAIM!)) await new Promise((resolve) => setTimeout(resolve, 20));
console.log(JSON.stringify({ pids: factory.workerPids() }));
process.exit(0);
