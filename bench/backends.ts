/**
 * The sandbox backends compared on one iteration's sandbox work (inject a tool
 * result, run a small block), the in-process isolate being the reference measured
 * in the same run. Part of the orchestrator benchmark (bench/orchestrator.ts).
 */
import { createProcessSandboxFactory, isolateSandboxFactory, type SandboxFactory } from "../src/index.ts";
import { median } from "./median.ts";

function fmt(ms: number): string {
  return ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`;
}

/** One iteration's sandbox work (inject a tool result, run the small block), median per backend, rounds interleaved. */
export async function benchBackends(rounds: number): Promise<Record<string, string>[]> {
  const processFactory = createProcessSandboxFactory();
  const factories: [string, SandboxFactory][] = [["isolate (in process)", isolateSandboxFactory], ["process (worker pool)", processFactory]];
  const sandboxes = await Promise.all(factories.map(async ([, factory]) => factory.create()));
  const code = "const names = __rlm_bench_info.languages.map((l) => l.name)\nprint(names.join(', '), __rlm_bench_info.files)";
  const info = { files: 120, languages: [{ name: "TypeScript" }, { name: "Go" }] };
  const times: number[][] = factories.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [index, sandbox] of sandboxes.entries()) {
      const t0 = performance.now();
      await sandbox.setGlobal("__rlm_bench_info", info);
      const result = await sandbox.execute(code);
      times[index].push(performance.now() - t0);
      if (result.error) throw new Error(result.error.message);
    }
  }
  await Promise.all(sandboxes.map((sandbox) => sandbox.dispose()));
  await processFactory.close();
  const reference = median(times[0]);
  return factories.map(([label], index) => {
    const m = median(times[index]);
    return { backend: label, "inject + run (median)": fmt(m), "overhead vs isolate": index === 0 ? "reference" : `+${fmt(m - reference)} (${(m / reference).toFixed(1)}×)` };
  });
}
