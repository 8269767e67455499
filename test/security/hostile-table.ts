/**
 * The hostile-block table: blocks that attack the host through the sandbox's limits,
 * each run by `test/support/hostile-block-runner.ts` in a child process of its own
 * (a block may kill the process it runs in), next to a companion session.
 * The limits are the acceptance criteria of the process backend.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** No block raises the host's resident memory by more than this. */
export const MAX_RSS_GROWTH_MB = 150;
/** No block runs longer than its time limit plus this. */
export const MAX_OVERRUN_MS = 1_000;

export interface HostileRow {
  readonly label: string;
  readonly code: string;
  readonly timeoutMs: number;
  readonly memoryLimitMb: number;
  /** What the block's error must be (under the process backend). */
  readonly kinds: readonly string[];
  /** A tighter memory bound than {@link MAX_RSS_GROWTH_MB}, where the criteria name one. */
  readonly maxRssGrowthMb?: number;
  /**
   * How the in-process backend fares: `bounded` meets the same limits; `bounded in time` ends the block
   * in time, but the isolate's thread runs on until its built-in ends; otherwise why the row is not run
   * in-process or what it shows.
   */
  readonly inProcess:
    | "bounded"
    | "bounded in time"
    | "survives"
    | "survives, but the process cannot exit afterwards"
    | "kills the process"
    | { readonly skip: string };
}

export const HOSTILE_ROWS: readonly HostileRow[] = [
  {
    label: "V8 fatal error: a string of 2^27 + 1 characters split into characters",
    code: '"x".repeat(2 ** 27 + 1).split("")',
    // Long enough that V8's fatal error, not the time limit, ends the block, even on a busy machine.
    timeoutMs: 10_000,
    memoryLimitMb: 64,
    kinds: ["crash"],
    inProcess: "kills the process",
  },
  {
    label: "an array of 10^8 elements filled (a built-in that never checks for interrupts)",
    code: "new Array(1e8).fill(0)",
    timeoutMs: 500,
    memoryLimitMb: 64,
    kinds: ["timeout", "memory"],
    maxRssGrowthMb: 100,
    inProcess: { skip: "in process it runs for 9 s to a minute and takes the host's memory up by over 1 GB; only a process boundary stops it" },
  },
  {
    label: "a BigInt parsed from 3 * 10^7 digits (a built-in that never checks for interrupts, with little memory)",
    code: 'BigInt("1".repeat(3e7))',
    timeoutMs: 500,
    memoryLimitMb: 64,
    kinds: ["timeout"],
    // The watchdog's dispose cannot stop it; the block is abandoned and the session goes on while the thread runs for seconds more.
    inProcess: "bounded in time",
  },
  {
    label: "the same BigInt under a 16 MB limit (the heap limit, not the watchdog, disposes the isolate first)",
    code: 'BigInt("1".repeat(3e7))',
    timeoutMs: 500,
    memoryLimitMb: 16,
    kinds: ["memory", "timeout"],
    inProcess: "bounded in time",
  },
  {
    label: "a string doubled to 2^28 characters and returned with FINAL",
    code: 'let s = "x"; while (s.length < 2 ** 28) s += s; FINAL(s)',
    timeoutMs: 500,
    memoryLimitMb: 64,
    kinds: ["timeout", "memory", "runtime"],
    inProcess: { skip: "in process the isolate's string grows the host by about 1 GB before any limit applies" },
  },
  {
    label: "a dictionary grown until V8 gives up (catastrophic out-of-memory)",
    code: "const o = {}; for (let i = 0; ; i++) o['k' + i] = [i, i, i]",
    timeoutMs: 5_000,
    memoryLimitMb: 16,
    kinds: ["memory", "timeout"],
    // isolated-vm parks the thread of an isolate lost this way for good: its heap is never freed and process.exit() waits on it.
    inProcess: "survives, but the process cannot exit afterwards",
  },
  {
    label: "a string of 2^27 characters printed (String.prototype.slice replaced first), then a busy loop",
    code: 'String.prototype.slice = function () { return String(this) }; print("x".repeat(2 ** 27)); while (true) {}',
    timeoutMs: 1_000,
    memoryLimitMb: 256,
    kinds: ["timeout"],
    // Output is cut to maxOutputChars inside the isolate, so the 128 MB string never reaches the host.
    inProcess: "bounded",
  },
  {
    label: "a busy loop",
    code: "while (true) {}",
    timeoutMs: 500,
    memoryLimitMb: 64,
    kinds: ["timeout"],
    inProcess: "bounded",
  },
  {
    label: "a global left over the memory limit (used to brick the sandbox)",
    code: "const big = new Array(3e7).fill(0)",
    timeoutMs: 5_000,
    memoryLimitMb: 64,
    kinds: ["timeout", "memory"],
    inProcess: "survives",
  },
];

/** What the runner reports. */
export interface HostileOutcome {
  readonly blockMs: number;
  readonly rssGrowthMb: number;
  readonly blockError?: { readonly kind: string; readonly name: string; readonly message: string };
  readonly status: string;
  readonly answer?: unknown;
  readonly companionStatus: string;
  readonly companionAnswer?: unknown;
}

const RUNNER = fileURLToPath(new URL("../support/hostile-block-runner.ts", import.meta.url));

/** No run of the runner takes longer than this; it is killed then, before the test's own time limit. */
const RUN_WITHIN_MS = 40_000;

/**
 * How the runner's process ended: `stillRunning` when it had not exited `exitWithinMs` after its report,
 * `noReport` when it had printed none within {@link RUN_WITHIN_MS} (it is killed either way).
 */
export interface RunnerExit {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stillRunning: boolean;
  readonly noReport?: true;
  /** The runner's stderr (its trail of session events), when it printed no report. */
  readonly trail?: string;
}

/** Runs one row in a child process; resolves to the runner's report (if it printed one) and how the process ended. */
export async function runHostileRow(row: HostileRow, backend: "process" | "isolate", exitWithinMs = 5_000): Promise<{ outcome?: HostileOutcome; exit: RunnerExit }> {
  const child = spawn(process.execPath, [RUNNER, JSON.stringify({ backend, code: row.code, timeoutMs: row.timeoutMs, memoryLimitMb: row.memoryLimitMb })], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-4_000)));
  const exit = await new Promise<RunnerExit>((resolve) => {
    // The whole run is bounded; once the report is out, the process has `exitWithinMs` to end by itself.
    let noReport = false;
    let timer = setTimeout(() => ((noReport = true), child.kill("SIGKILL")), RUN_WITHIN_MS);
    let stillRunning = false;
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!stdout.includes("\n")) return;
      clearTimeout(timer);
      timer = setTimeout(() => ((stillRunning = true), child.kill("SIGKILL")), exitWithinMs);
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (noReport) resolve({ code: null, signal: null, stillRunning: true, noReport: true, trail: stderr });
      else resolve({ code: stillRunning ? null : code, signal: stillRunning ? null : signal, stillRunning });
    });
  });
  const line = stdout.trim().split("\n").pop();
  return { ...(line ? { outcome: JSON.parse(line) as HostileOutcome } : {}), exit };
}
