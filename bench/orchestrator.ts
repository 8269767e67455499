/**
 * Orchestrator benchmark: the host's own time per block (parse + validate,
 * tool execution + injection, rewrite, sandbox run) for a small and a 500-line
 * block, the time to load a 50 MB context into the sandbox, and top-level model
 * code (a loop, split and filter, JSON.parse) against host Node. Each figure is
 * printed next to a reference measured in the same run (plain acorn parse, a
 * bare isolated-vm isolate) so the ratio shows rlmkit's overhead.
 *
 * The two sandbox backends are compared on one iteration's sandbox work (inject a
 * tool result, run the small block), the in-process isolate being the reference.
 *
 * Run: npm run bench   (or: npx node bench/orchestrator.ts)
 */
import ivm from "isolated-vm";
import { parse } from "acorn";
import { createIsolateSandbox, interceptBlock, rewriteBlock } from "../src/index.ts";
import { semiSpaceMb, withSemiSpace } from "../sandbox/nursery.ts";
import { toReplProgram } from "../sandbox/repl-rewrite.ts";
import { ReplState } from "../sandbox/repl-state.ts";
import { benchBackends } from "./backends.ts";
import { median } from "./median.ts";

const ROUNDS = 50;

function smallBlock(): string {
  return `const info = nav_info()\nconst names = info.languages.map((l) => l.name)\nprint(names.join(", "), info.files)`;
}

function bigBlock(lines: number): string {
  const out = [`const info = nav_info()`, `const hits = nav_search("retry", {limit: 20})`];
  for (let i = 0; out.length < lines - 1; i++) {
    out.push(`const v${i} = (info.files + ${i}) * 2 % 7; if (v${i} > 3) { print("line ${i}", v${i}) }`);
  }
  out.push(`print(hits.length)`);
  return out.join("\n");
}

function fmt(ms: number): string {
  return ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`;
}

async function benchBlock(label: string, code: string): Promise<Record<string, string>> {
  const tools = new Set(["nav_info", "nav_search"]);
  const results = { info: { files: 120, languages: [{ name: "TypeScript" }, { name: "Go" }] }, hits: [{ path: "a.ts", line: 1 }] };
  const sandbox = await createIsolateSandbox({ maxOutputChars: 1_000_000 });
  const reference = new ivm.Isolate({ memoryLimit: 128 });
  const referenceContext = await reference.createContext();
  await referenceContext.global.set("print", new ivm.Callback(() => undefined));
  const times = { parse: [] as number[], acorn: [] as number[], inject: [] as number[], rewrite: [] as number[], run: [] as number[], bare: [] as number[], total: [] as number[] };
  let counter = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const t0 = performance.now();
    const intercepted = interceptBlock(code, tools);
    const t1 = performance.now();
    if (!intercepted.ok) throw new Error(intercepted.problems[0].message);
    const names: string[] = [];
    for (const call of intercepted.calls) {
      const name = `__rlm_bench_${counter++}`;
      await sandbox.setGlobal(name, call.tool === "nav_info" ? results.info : results.hits);
      names.push(name);
    }
    const t2 = performance.now();
    const rewritten = rewriteBlock(code, intercepted.calls, names);
    const t3 = performance.now();
    const result = await sandbox.execute(rewritten);
    const t4 = performance.now();
    if (result.error) throw new Error(result.error.message);
    times.parse.push(t1 - t0);
    times.inject.push(t2 - t1);
    times.rewrite.push(t3 - t2);
    times.run.push(t4 - t3);
    times.total.push(t4 - t0);

    const a0 = performance.now();
    parse(code, { ecmaVersion: "latest", sourceType: "script", allowAwaitOutsideFunction: true, locations: true });
    times.acorn.push(performance.now() - a0);

    // Reference: the same code with results as literals, compiled and run in a bare isolate (no REPL rewrite, no checks).
    const bare = `(() => { const nav_info = () => (${JSON.stringify(results.info)}); const nav_search = () => (${JSON.stringify(results.hits)});\n${code.replace(/\bconst (\w+) =/g, "var $1 =")}\n})()`;
    const b0 = performance.now();
    const script = await reference.compileScript(bare);
    await script.run(referenceContext);
    times.bare.push(performance.now() - b0);
    script.release();
  }
  await sandbox.dispose();
  reference.dispose();
  const m = Object.fromEntries(Object.entries(times).map(([key, values]) => [key, median(values)])) as Record<keyof typeof times, number>;
  return {
    block: label,
    "parse+validate": `${fmt(m.parse)} (${(m.parse / m.acorn).toFixed(1)}× bare acorn ${fmt(m.acorn)})`,
    inject: fmt(m.inject),
    rewrite: fmt(m.rewrite),
    run: `${fmt(m.run)} (${(m.run / m.bare).toFixed(1)}× bare isolate ${fmt(m.bare)})`,
    total: fmt(m.total),
  };
}

async function benchContext(megabytes: number): Promise<Record<string, string>> {
  const context = "0123456789abcdef".repeat((megabytes * 1024 * 1024) / 16);
  const r0 = performance.now();
  const reference = new ivm.Isolate({ memoryLimit: 128 + megabytes * 3 });
  const referenceContext = await reference.createContext();
  await referenceContext.global.set("context", context);
  const referenceMs = performance.now() - r0;
  reference.dispose();

  const s0 = performance.now();
  const sandbox = await createIsolateSandbox();
  await sandbox.setPersistentGlobal("context", context);
  const loadMs = performance.now() - s0;
  const b0 = performance.now();
  const result = await sandbox.execute("print(context.length, context.indexOf('fff0'))");
  const blockMs = performance.now() - b0;
  await sandbox.dispose();
  if (result.error) throw new Error(result.error.message);
  return {
    context: `${megabytes} MB string`,
    "load into sandbox": `${fmt(loadMs)} (${(loadMs / referenceMs).toFixed(1)}× bare isolate + global.set ${fmt(referenceMs)})`,
    "first block over it": fmt(blockMs),
  };
}

const GUEST_ROUNDS = 41;
const MB = 1024 * 1024;

/** A log of about `megabytes` MB, one request a line, every seventh an error. */
function logText(megabytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < megabytes * MB; i++) {
    const line = `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}Z ${i % 7 === 0 ? "ERROR" : "INFO"} request ${i} took ${(i * 37) % 1000} ms`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

/** A JSON array of records, about `megabytes` MB of text. */
function jsonText(megabytes: number): string {
  const records: unknown[] = [];
  let size = 2;
  for (let i = 0; size < megabytes * MB; i++) {
    const record = { id: i, name: `item ${i}`, tags: ["alpha", i % 2 ? "odd" : "even"], score: i / 7, nested: { ok: i % 3 === 0 } };
    records.push(record);
    size += JSON.stringify(record).length + 1;
  }
  return JSON.stringify(records);
}

/**
 * A bare isolated-vm isolate made as the sandbox makes its own (the same heap limit and nursery), that
 * rewrites a block as the REPL does, compiles and runs it, and nothing else: no checks, no watchdog,
 * no output. What the isolate itself costs, beside what rlmkit adds around it.
 */
async function bareIsolate(context: string): Promise<{ run: (code: string) => Promise<number>; dispose: () => void }> {
  const limitMb = 128 + Math.ceil(context.length / MB);
  const isolate = withSemiSpace(semiSpaceMb(128), () => new ivm.Isolate({ memoryLimit: limitMb }));
  const isolateContext = await isolate.createContext();
  await isolateContext.global.set("context", context, { copy: true });
  await isolateContext.global.set("print", new ivm.Callback(() => undefined));
  const scope = new ReplState();
  return {
    async run(code) {
      const started = performance.now();
      const program = toReplProgram(code, { scope, reserved: ["context"] });
      const script = await isolate.compileScript(program.code);
      scope.record(program);
      const body = (await script.run(isolateContext, { reference: true, release: true })) as ivm.Reference;
      await body.apply(undefined, [isolateContext.global.derefInto()], { result: { promise: true, copy: true } });
      body.release();
      return performance.now() - started;
    },
    dispose: () => isolate.dispose(),
  };
}

/**
 * Code a model writes at the top level of a block, run by `sandbox.execute` (the
 * whole call: REPL rewrite, compile, run) against the same code as the body of a
 * function in host Node, in the same run, and beside it in a bare isolate (see
 * {@link bareIsolate}). Each case runs in one sandbox, as a session would, with the
 * big values dropped after each round. Only the sandbox's and host Node's rounds alternate;
 * the warmed function and the bare isolate run in a loop of their own afterwards, so that
 * neither leaves its work on the machine's threads just before a compared round.
 */
async function benchGuestCode(label: string, context: string, code: string, cleanup: string): Promise<Record<string, string>> {
  const sandbox = await createIsolateSandbox();
  await sandbox.setPersistentGlobal("context", context);
  const bare = await bareIsolate(context);
  const bareTimes: number[] = [];
  type HostCode = (context: string, print: (...args: unknown[]) => void) => void;
  // A block is new code each time, so the reference is too: compiled afresh each round (a different
  // comment keeps V8 from reusing an earlier compile), as `node -e` runs it. The same function called
  // every round, warmed by the earlier ones, is shown beside it.
  const fresh = (round: number) => new Function("context", "print", `${code}\n// round ${round}`) as HostCode;
  const warmed = new Function("context", "print", code) as HostCode;
  const sandboxTimes: number[] = [];
  const hostTimes: number[] = [];
  const warmedTimes: number[] = [];
  let guestOutput = "";
  let hostOutput = "";
  const inSandbox = async (): Promise<number> => {
    const s0 = performance.now();
    const result = await sandbox.execute(code);
    const s1 = performance.now();
    if (result.error) throw new Error(`${label}: ${result.error.message}`);
    guestOutput = result.output;
    const cleaned = await sandbox.execute(cleanup);
    if (cleaned.error) throw new Error(`${label}: ${cleaned.error.message}`);
    return s1 - s0;
  };
  const inHost = (round: number): number => {
    const host = fresh(round);
    const h0 = performance.now();
    host(context, (...args) => (hostOutput = `${args.join(" ")}\n`));
    return performance.now() - h0;
  };
  // The first round warms both up and is not counted. Each side goes first in every other round: what one side
  // leaves running on the machine's other threads (its compilations, its collections) falls as often on the other.
  // Nothing else runs between them: the columns beside them are measured in loops of their own, after.
  for (let round = 0; round <= GUEST_ROUNDS; round++) {
    let sandboxMs: number;
    let hostMs: number;
    if (round % 2 === 0) {
      sandboxMs = await inSandbox();
      hostMs = inHost(round);
    } else {
      hostMs = inHost(round);
      sandboxMs = await inSandbox();
    }
    if (round === 0) continue;
    sandboxTimes.push(sandboxMs);
    hostTimes.push(hostMs);
  }
  for (let round = 0; round <= GUEST_ROUNDS; round++) {
    const w0 = performance.now();
    warmed(context, () => undefined);
    const warmedMs = performance.now() - w0;
    const bareMs = await bare.run(code);
    await bare.run(cleanup);
    if (round === 0) continue;
    warmedTimes.push(warmedMs);
    bareTimes.push(bareMs);
  }
  await sandbox.dispose();
  bare.dispose();
  if (guestOutput !== hostOutput) throw new Error(`${label}: the sandbox printed ${JSON.stringify(guestOutput)}, host Node ${JSON.stringify(hostOutput)}`);
  const sandboxMs = median(sandboxTimes);
  const hostMs = median(hostTimes);
  // On a busy machine the fastest round of each is the one least disturbed by other work.
  const sandboxBest = Math.min(...sandboxTimes);
  const hostBest = Math.min(...hostTimes);
  return {
    code: label,
    sandbox: fmt(sandboxMs),
    "host Node": fmt(hostMs),
    ratio: `${(sandboxMs / hostMs).toFixed(2)}×`,
    "fastest rounds": `${fmt(sandboxBest)} / ${fmt(hostBest)} = ${(sandboxBest / hostBest).toFixed(2)}×`,
    "host, warmed function": `${fmt(median(warmedTimes))} (${(sandboxMs / median(warmedTimes)).toFixed(2)}×)`,
    "bare isolate": `${fmt(median(bareTimes))} (${(median(bareTimes) / hostMs).toFixed(2)}× host Node)`,
  };
}

export async function runOrchestratorBench(): Promise<void> {
  console.log(`\n## Orchestrator (median of ${ROUNDS} rounds per block)\n`);
  console.table([await benchBlock("small (3 lines, 1 tool call)", smallBlock()), await benchBlock("500 lines, 2 tool calls", bigBlock(500))]);
  console.log(`\n## Sandbox backends: one iteration's sandbox work, median of ${ROUNDS * 4} rounds\n`);
  console.table(await benchBackends(ROUNDS * 4));
  console.log("\n## Loading a large context\n");
  console.table([await benchContext(50)]);
  console.log(`\n## Top-level code in a block against the same code compiled afresh in host Node (median of ${GUEST_ROUNDS} rounds)\n`);
  const log = logText(10);
  console.table([
    await benchGuestCode("loop summing 1e7 numbers", "", "let total = 0\nfor (let i = 0; i < 1e7; i++) total += i\nprint(total)", "total = 0"),
    await benchGuestCode("split and filter a 10 MB context", log, "const lines = context.split('\\n')\nconst errors = lines.filter((line) => line.includes('ERROR'))\nprint(lines.length, errors.length)", "lines = errors = null"),
    await benchGuestCode("JSON.parse of a 10 MB context", jsonText(10), "const records = JSON.parse(context)\nprint(records.length)", "records = null"),
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`) await runOrchestratorBench();
