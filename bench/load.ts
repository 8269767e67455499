/**
 * Load benchmark: 100 and 1,000 concurrent sessions in one process, for each
 * sandbox backend. Each session is scripted (ScriptedModel, no model server) and
 * navigates this repository with the nav tools (one shared NavTools): a nav_info
 * block, a nav_search block that computes over the hits, and a FINAL block.
 * Reports throughput, p50/p99 block latency (code_block to sandbox_result, tool
 * calls included) and resident memory per session at the peak, for this process
 * and, for the process backend, its worker processes.
 *
 * Run: npm run bench -- load   (or: npx node bench/load.ts)
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createNavTools, createProcessSandboxFactory, isolateSandboxFactory, runSession, ScriptedModel, type SandboxFactory, type ProcessSandboxFactory } from "../src/index.ts";
import { median } from "./median.ts";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const MB = 1024 * 1024;
const js = (code: string) => "```js\n" + code + "\n```";

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

function residentMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : 0;
}

async function runLoad(sessions: number, backend: "isolate" | "process"): Promise<Record<string, string>> {
  const nav = await createNavTools(repo);
  await nav.info();
  const factory: SandboxFactory = backend === "isolate" ? isolateSandboxFactory : createProcessSandboxFactory();
  // One warm-up session starts the workers and loads everything before the baseline.
  await runSession({ question: "warm up", model: new ScriptedModel([js("FINAL(1)")]), sandboxFactory: factory, subcalls: false });
  globalThis.gc?.();
  const pids = () => (backend === "process" ? (factory as ProcessSandboxFactory).workerPids() : []);
  const baseline = process.memoryUsage().rss;
  const workerBaseline = pids().reduce((sum, pid) => sum + residentMb(pid), 0);
  let peak = baseline;
  let workerPeak = workerBaseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
    if (backend === "process") workerPeak = Math.max(workerPeak, pids().reduce((sum, pid) => sum + residentMb(pid), 0));
  }, 20);
  const latencies: number[] = [];
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: sessions }, (_, index) => {
      const blockStart = new Map<string, number>();
      return runSession({
        question: `load ${index}`,
        model: new ScriptedModel([
          js("const info = nav_info()\nprint(info.files)"),
          js(`const hits = nav_search("sandbox", { limit: 20 })\nconst files = new Set(hits.matches.map((m) => m.path))\nprint(files.size, ${index})`),
          js("FINAL({ files: info.files })"),
        ]),
        repo: nav,
        sandboxFactory: factory,
        subcalls: false,
        onEvent: (event) => {
          if (event.type === "code_block") blockStart.set(`${event.iteration}:${event.index}`, performance.now());
          if (event.type === "sandbox_result") latencies.push(performance.now() - blockStart.get(`${event.iteration}:${event.index}`)!);
        },
      });
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const failed = results.filter((result) => result.status !== "final");
  if (failed.length > 0) throw new Error(`${failed.length} sessions did not answer: ${failed[0].error}`);
  if (backend === "process") await (factory as ProcessSandboxFactory).close();
  await nav.close();
  const perSession = (peak - baseline) / MB / sessions;
  return {
    backend,
    sessions: String(sessions),
    "sessions/s": (sessions / seconds).toFixed(0),
    "blocks/s": (latencies.length / seconds).toFixed(0),
    "block p50": `${median(latencies).toFixed(1)} ms`,
    "block p99": `${percentile(latencies, 0.99).toFixed(1)} ms`,
    "host RSS per session": `${perSession.toFixed(2)} MB`,
    "workers' RSS per session": backend === "process" ? `${((workerPeak - workerBaseline) / sessions).toFixed(2)} MB` : "-",
  };
}

/** Each configuration runs in a fresh process of its own, so one run's memory does not hide the next one's. */
export async function runLoadBench(): Promise<void> {
  console.log("\n## Concurrent sessions in one process (scripted model, nav tools on this repository)\n");
  const rows: Record<string, string>[] = [];
  for (const sessions of [100, 1_000]) {
    for (const backend of ["isolate", "process"] as const) {
      const run = spawnSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), String(sessions), backend], { encoding: "utf8", maxBuffer: 1 << 24 });
      if (run.status !== 0) throw new Error(`the ${backend} run with ${sessions} sessions failed: ${run.stderr}`);
      rows.push(JSON.parse(run.stdout.trim().split("\n").pop()!) as Record<string, string>);
    }
  }
  console.table(rows);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [sessions, backend] = process.argv.slice(2);
  if (sessions) console.log(JSON.stringify(await runLoad(Number(sessions), backend === "process" ? "process" : "isolate")));
  else await runLoadBench();
}
