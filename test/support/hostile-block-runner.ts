/**
 * Runs one hostile block in a session of its own process, next to a companion
 * session in the same process, and prints what happened as one JSON line: how
 * long the block ran, how much this process's resident memory grew at its peak,
 * and how both sessions ended. Then it leaves the process to end by itself, so
 * the caller also learns whether anything keeps it alive.
 *
 * Usage: node test/support/hostile-block-runner.ts '{"backend":"process","code":"...","timeoutMs":500,"memoryLimitMb":64}'
 */
import { createProcessSandboxFactory, runSession, ScriptedModel, type SandboxFactory, type SessionEvent } from "../../src/index.ts";
import { js } from "./scripted-replies.ts";

interface Row {
  readonly backend: "process" | "isolate";
  readonly code: string;
  readonly timeoutMs: number;
  readonly memoryLimitMb: number;
}

const row = JSON.parse(process.argv[2]!) as Row;
const MB = 1024 * 1024;
// One worker, so the companion shares the hostile block's process: the harshest case.
const factory = row.backend === "process" ? createProcessSandboxFactory({ workers: 1 }) : undefined;
const sandbox = { backend: row.backend, timeoutMs: row.timeoutMs, memoryLimitMb: row.memoryLimitMb };
const options = { sandbox, ...(factory ? { sandboxFactory: factory as SandboxFactory } : {}), subcalls: false };

// Warm up: a first session loads everything a session needs, so the baseline is steady.
await runSession({ question: "warm up", model: new ScriptedModel([js("FINAL(1)")]), ...options });
const baseline = process.memoryUsage().rss;
let peak = baseline;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);

let blockMs = -1;
let blockError: unknown;
let started = 0;
const onEvent = (event: SessionEvent): void => {
  // A trail on stderr, so a run that never reports shows where it stopped.
  process.stderr.write(`${Math.round(performance.now())} ms: hostile ${event.type}\n`);
  if (event.type === "code_block" && event.iteration === 1) started = performance.now();
  if (event.type === "sandbox_result" && event.iteration === 1) {
    blockMs = performance.now() - started;
    blockError = event.error;
  }
};
let companionRan = false;
const companion = runSession({
  question: "companion",
  // Its blocks wait on a sub-second timer inside the guest: busy while the hostile block runs.
  onEvent: (event) => void process.stderr.write(`${Math.round(performance.now())} ms: companion ${event.type}\n`),
  model: new ScriptedModel([js("const a = 21; let spins = 0; for (const end = Date.now() + 300; Date.now() < end; ) spins++"), () => ((companionRan = true), js("FINAL(a * 2)")), js("FINAL(42)")]),
  ...options,
});
const hostile = runSession({ question: "hostile", model: new ScriptedModel([js(row.code), js('FINAL("recovered")')]), onEvent, ...options });
const [hostileResult, companionResult] = await Promise.all([hostile, companion]);
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);
await factory?.close();
console.log(
  JSON.stringify({
    blockMs: Math.round(blockMs),
    rssGrowthMb: Math.round((peak - baseline) / MB),
    blockError,
    status: hostileResult.status,
    ...(hostileResult.error ? { error: hostileResult.error } : {}),
    answer: hostileResult.answer,
    companionStatus: companionResult.status,
    companionAnswer: companionResult.answer,
    companionRan,
  }),
);
