import {
  sandboxLimits,
  type ExecutionError,
  type ExecutionResult,
  type GuestValue,
  type HostFunction,
  type Sandbox,
  type SandboxLimits,
  type SandboxOptions,
} from "./sandbox.ts";
import { redactHostPaths } from "./redact.ts";
import { persistentBytes } from "./json-size.ts";
import { semiSpaceMb } from "./nursery.ts";
import { WorkerLostError, type WorkerLoss, type WorkerProcess, type WorkerTenant } from "./worker-process.ts";

const MB = 1024 * 1024;
/** How long past its time limit a block may run before the host stops its whole worker process. */
export const KILL_GRACE_MS = 250;
/** How often the host checks a running block's time. */
const BACKSTOP_TICK_MS = 50;

/** What a process sandbox needs from its pool. */
export interface WorkerSource {
  /** A live worker with room, started if need be. */
  pick(): Promise<WorkerProcess>;
}

/** Opens a sandbox in a worker of `source`. */
export async function openProcessSandbox(source: WorkerSource, options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = new ProcessSandbox(source, sandboxLimits(options));
  await sandbox.attach();
  return sandbox;
}

/** A running block's wait on host functions, as the host's time backstop counts it. */
interface Running {
  readonly started: number;
  waited: number;
  inFlight: number;
  waitingSince: number;
}

/**
 * A sandbox whose isolate lives in a worker process. The host keeps what must
 * survive (persistent globals, stubs, exposed functions) and re-applies it on a
 * fresh worker when the old one went away; it stops the worker when a block
 * overruns its time limit by {@link KILL_GRACE_MS} (a built-in that never reaches
 * an interrupt check, say), and reports every loss to the block that suffered it.
 */
class ProcessSandbox implements Sandbox, WorkerTenant {
  readonly #source: WorkerSource;
  readonly #limits: SandboxLimits;
  readonly #persistent = new Map<string, { value: GuestValue; bytes: number }>();
  readonly #stubs = new Map<string, string>();
  readonly #functions = new Map<string, HostFunction>();
  #attached?: { readonly worker: WorkerProcess; readonly id: number };
  /** The worker went away while no block ran: the next block is told and does not run. */
  #lostBetweenBlocks?: WorkerLoss;
  #running?: Running;
  /** A block has run or a global was set: from then on, losing the worker loses guest state (variables, injected values). */
  #hasGuestState = false;
  #busy = false;
  #disposed = false;

  constructor(source: WorkerSource, limits: SandboxLimits) {
    this.#source = source;
    this.#limits = limits;
  }

  /** Opens the sandbox in a worker and applies what must survive; tries a second worker if the first goes away meanwhile. */
  async attach(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      let worker: WorkerProcess;
      try {
        worker = await this.#source.pick();
      } catch (error) {
        // The picked worker never started (it crashed or was stopped as stuck): try another.
        if (!(error instanceof WorkerLostError) || attempt >= 2) throw error;
        continue;
      }
      const id = worker.adopt(this);
      try {
        await worker.request("open", id, this.#limits);
        for (const [name, { value }] of this.#persistent) await worker.request("persist", id, name, value);
        for (const [name, message] of this.#stubs) await worker.request("stub", id, name, message);
        for (const name of this.#functions.keys()) await worker.request("expose", id, name);
        this.#attached = { worker, id };
        return;
      } catch (error) {
        worker.release(id);
        if (!(error instanceof WorkerLostError) || attempt >= 2) throw error;
      }
    }
  }

  async setPersistentGlobal(name: string, value: GuestValue): Promise<void> {
    const bytes = persistentBytes(value);
    const previous = this.#persistent.get(name);
    this.#persistent.set(name, { value, bytes });
    try {
      await this.#request("persist", name, value);
    } catch (error) {
      if (!(error instanceof WorkerLostError) && !/too large/.test(String((error as Error)?.message))) throw error;
      // It cost a worker process twice (or the worker refused it): never re-apply it.
      if (previous) this.#persistent.set(name, previous);
      else this.#persistent.delete(name);
      if (!this.#attached) await this.attach();
      throw new RangeError(error instanceof WorkerLostError ? `the sandbox global '${name}' is too large: setting it ended its worker process (${error.loss.detail}). Pass a smaller value, or a string (the most compact form).` : String((error as Error).message));
    }
  }

  async setGlobal(name: string, value: GuestValue): Promise<void> {
    // Not re-applied on a fresh worker (a tool result for the next block, say): its loss is reported.
    this.#hasGuestState = true;
    await this.#request("set", name, value);
  }

  async defineStub(name: string, message: string): Promise<void> {
    this.#stubs.set(name, message);
    await this.#request("stub", name, message);
  }

  async exposeFunction(name: string, fn: HostFunction): Promise<void> {
    this.#functions.set(name, fn);
    await this.#request("expose", name);
  }

  async reset(): Promise<void> {
    await this.#request("reset");
    this.#lostBetweenBlocks = undefined;
    this.#hasGuestState = false;
  }

  async execute(code: string): Promise<ExecutionResult> {
    if (this.#busy) throw new Error("sandbox.execute was called while another block is still running; await each block before the next.");
    this.#alive();
    this.#busy = true;
    const started = performance.now();
    try {
      const lost = this.#lostBetweenBlocks;
      if (lost) {
        this.#lostBetweenBlocks = undefined;
        const error: ExecutionError = { kind: lost.kind, name: "SandboxLost", message: `the sandbox was restarted before this block, which therefore did not run: ${describeLoss(lost, false)}` };
        return { output: "", outputTruncated: false, error, reset: true, durationMs: performance.now() - started, hostWaitMs: 0 };
      }
      if (!this.#attached) await this.attach();
      const { worker, id } = this.#attached!;
      this.#hasGuestState = true;
      // The block's time starts now: starting a fresh worker and reopening the sandbox in it do not count.
      const running: Running = { started: performance.now(), waited: 0, inFlight: 0, waitingSince: 0 };
      this.#running = running;
      const backstop = setInterval(() => this.#checkTime(worker, id, running), BACKSTOP_TICK_MS);
      try {
        return (await worker.request("execute", id, code)) as ExecutionResult;
      } catch (error) {
        if (!(error instanceof WorkerLostError)) throw error;
        const loss = error.loss;
        const culprit = loss.kind === "timeout" && loss.culprit === id;
        const stopped: ExecutionError = culprit
          ? { kind: "timeout", name: "TimeoutError", message: `the block did not finish within ${this.#limits.timeoutMs} ms and was stopped (its worker process was ended)` }
          : loss.kind === "memory"
            ? { kind: "memory", name: "RangeError", message: describeLoss(loss, true) }
            : { kind: "crash", name: "SandboxCrash", message: describeLoss(loss, true) };
        // The next call continues on a fresh worker (the pool is already starting one).
        return { output: "", outputTruncated: false, error: stopped, reset: true, durationMs: performance.now() - started, hostWaitMs: running.waited };
      } finally {
        clearInterval(backstop);
        this.#running = undefined;
      }
    } finally {
      this.#busy = false;
    }
  }

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    const attached = this.#attached;
    this.#attached = undefined;
    if (!attached) return;
    await attached.worker.request("dispose", attached.id).catch(() => undefined);
    attached.worker.release(attached.id);
  }

  /** Runs a host function for guest code in the worker; its wait is not counted against the block's time. */
  async callHost(name: string, args: GuestValue[]): Promise<string> {
    const fn = this.#functions.get(name);
    if (!fn || this.#disposed) throw new Error(`${name} is not available`);
    const running = this.#running;
    if (running && running.inFlight++ === 0) running.waitingSince = performance.now();
    try {
      const value = await fn(...args);
      return JSON.stringify(value === undefined ? null : value);
    } catch (error) {
      const err = error as Error;
      throw Object.assign(new Error(redactHostPaths(String(err?.message ?? error))), { name: typeof err?.name === "string" ? err.name : "Error" });
    } finally {
      if (running && --running.inFlight === 0) running.waited += performance.now() - running.waitingSince;
    }
  }

  lost(loss: WorkerLoss): void {
    this.#attached = undefined;
    // Before any block ran or any global was set there was nothing to lose: the sandbox simply moves.
    if (!this.#running && !this.#disposed && this.#hasGuestState) this.#lostBetweenBlocks ??= loss;
  }

  /**
   * The heap limit, the young generation V8 adds on top of it (three semi-spaces at
   * most), and persistent globals three times over: the isolate's copy and the worker's copies in transit.
   */
  allowanceMb(): number {
    let bytes = 0;
    for (const { bytes: size } of this.#persistent.values()) bytes += size;
    return this.#limits.memoryLimitMb + 3 * semiSpaceMb(this.#limits.memoryLimitMb) + Math.ceil((3 * bytes) / MB);
  }

  /** Stops the worker when the block is past its time limit (or its host-wait limit) by more than the grace. */
  #checkTime(worker: WorkerProcess, id: number, running: Running): void {
    const now = performance.now();
    const waited = running.waited + (running.inFlight > 0 ? now - running.waitingSince : 0);
    if (now - running.started - waited > this.#limits.timeoutMs + KILL_GRACE_MS || waited > this.#limits.maxHostWaitMs + KILL_GRACE_MS) {
      worker.kill({ kind: "timeout", culprit: id, detail: "another block in the same worker process overran its time limit, and the process was stopped" });
    }
  }

  /** Sends a request on the current worker; if that worker goes away, continues on a fresh one (state re-applied) once. */
  async #request(op: "persist" | "set" | "stub" | "expose" | "reset", ...args: (string | GuestValue)[]): Promise<void> {
    this.#alive();
    for (let attempt = 1; ; attempt++) {
      if (!this.#attached) await this.attach();
      const { worker, id } = this.#attached!;
      try {
        await worker.request(op, id, ...args);
        return;
      } catch (error) {
        if (!(error instanceof WorkerLostError) || attempt >= 2) throw error;
      }
    }
  }

  #alive(): void {
    if (this.#disposed) throw new Error("sandbox was disposed; create a new one.");
  }
}

/** A loss in words for the model; `during` when the block was running at the time. */
function describeLoss(loss: WorkerLoss, during: boolean): string {
  const what = loss.kind === "timeout" ? "another block in the same worker process overran its time limit, and the process was stopped" : loss.detail;
  return during ? `the block was cut off: ${what}` : what;
}
