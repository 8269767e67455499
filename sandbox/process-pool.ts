import { availableParallelism } from "node:os";
import type { Sandbox, SandboxFactory, SandboxOptions } from "./sandbox.ts";
import { openProcessSandbox, type WorkerSource } from "./process-sandbox.ts";
import { WORKER_STALL_MS, WorkerProcess } from "./worker-process.ts";

/** MB a worker process may use beyond what its sandboxes are allowed (Node, isolated-vm, idle isolates). */
export const WORKER_BASE_MEMORY_MB = 384;
/** How often the host reads each worker's resident memory. */
const MEMORY_TICK_MS = 100;

/** Options of {@link createProcessSandboxFactory}. */
export interface ProcessSandboxOptions {
  /** Worker processes kept running. Default: the number of CPU cores (`os.availableParallelism()`). */
  readonly workers?: number;
  /** MB a worker may use on top of its sandboxes' own limits before the host stops it. Default {@link WORKER_BASE_MEMORY_MB}. */
  readonly workerBaseMemoryMb?: number;
  /**
   * Milliseconds a worker may take to start, or stay silent while a request that is
   * not a block (opening a sandbox, setting a global) waits for its answer (plus
   * 100 ms per MB of the values waiting), before the host stops it as stuck and its
   * sandboxes continue on a fresh worker. Blocks are governed by their own time
   * limit instead. Default {@link WORKER_STALL_MS}.
   */
  readonly stallTimeoutMs?: number;
}

/** The `process` backend's factory: it owns a pool of worker processes until `close()`. */
export interface ProcessSandboxFactory extends SandboxFactory {
  readonly backend: "process";
  /** Stops every worker; sandboxes still open fail from then on. */
  close(): Promise<void>;
  /** Process ids of the live workers (for monitoring and tests). */
  workerPids(): number[];
}

/**
 * Creates the `process` backend: sandboxes live in a pool of pre-started worker
 * processes (one per core by default), each holding many isolates. The host
 * enforces an operating-system-level memory cap per worker — its resident memory,
 * read from /proc, may not exceed the sum of its sandboxes' limits plus
 * `workerBaseMemoryMb` — and stops a worker whose block overran its time limit.
 * A worker that is stopped or crashes costs only the blocks running in it (they
 * end with a clear error); its sandboxes continue on a fresh worker with their
 * persistent globals, stubs and functions, and are told their variables were lost.
 * A worker that stops answering (see `stallTimeoutMs`) is stopped the same way, and
 * no worker outlives the host process. Idle workers do not keep the host process alive.
 *
 * @example
 * const factory = createProcessSandboxFactory();
 * const result = await runSession({ question, context, model, sandboxFactory: factory });
 * await factory.close();
 */
export function createProcessSandboxFactory(options: ProcessSandboxOptions = {}): ProcessSandboxFactory {
  return processSandboxFactory(options);
}

/**
 * {@link createProcessSandboxFactory} with another worker program (tests use one that misbehaves).
 * @internal
 */
export function processSandboxFactory(options: ProcessSandboxOptions, workerPath?: string): ProcessSandboxFactory {
  const pool = new ProcessPool(options, workerPath);
  return {
    backend: "process",
    create: (limits?: SandboxOptions): Promise<Sandbox> => openProcessSandbox(pool, limits),
    close: () => pool.close(),
    workerPids: () => pool.pids(),
  };
}

let shared: ProcessSandboxFactory | undefined;

/** The process-wide pool that sessions with `sandbox: { backend: "process" }` share; started on first use, never keeps the process alive. */
export function sharedProcessSandboxFactory(): ProcessSandboxFactory {
  shared ??= createProcessSandboxFactory();
  return shared;
}

class ProcessPool implements WorkerSource {
  readonly #size: number;
  readonly #baseMb: number;
  readonly #stallMs: number;
  readonly #workerPath?: string;
  readonly #workers = new Set<WorkerProcess>();
  #timer?: NodeJS.Timeout;
  #closed = false;

  constructor({ workers = availableParallelism(), workerBaseMemoryMb = WORKER_BASE_MEMORY_MB, stallTimeoutMs = WORKER_STALL_MS }: ProcessSandboxOptions, workerPath?: string) {
    if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`process sandbox option workers must be a positive integer, got ${workers}.`);
    if (!Number.isFinite(workerBaseMemoryMb) || workerBaseMemoryMb <= 0) throw new RangeError(`process sandbox option workerBaseMemoryMb must be a positive number, got ${workerBaseMemoryMb}.`);
    if (!Number.isFinite(stallTimeoutMs) || stallTimeoutMs <= 0) throw new RangeError(`process sandbox option stallTimeoutMs must be a positive number of milliseconds, got ${stallTimeoutMs}.`);
    this.#size = workers;
    this.#baseMb = workerBaseMemoryMb;
    this.#stallMs = stallTimeoutMs;
    this.#workerPath = workerPath;
  }

  async pick(): Promise<WorkerProcess> {
    if (this.#closed) throw new Error("the sandbox worker pool was closed; create a new factory.");
    this.#fill();
    // The live worker with the fewest sandboxes; a starting one counts as live.
    let best: WorkerProcess | undefined;
    for (const worker of this.#workers) if (!worker.gone && !worker.retiring && (!best || worker.tenants < best.tenants)) best = worker;
    await best!.ready;
    return best!;
  }

  pids(): number[] {
    return [...this.#workers].filter((worker) => !worker.gone).map((worker) => worker.pid);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    for (const worker of this.#workers) worker.kill({ kind: "crash", detail: "the sandbox worker pool was closed" });
    this.#workers.clear();
  }

  /** Starts workers until the pool has its size (retiring ones not counted), and the memory watch. */
  #fill(): void {
    let serving = 0;
    for (const worker of this.#workers) if (!worker.retiring) serving++;
    for (; serving < this.#size; serving++) {
      const worker = new WorkerProcess({ path: this.#workerPath, stallMs: this.#stallMs });
      worker.onGone = (gone) => {
        this.#workers.delete(gone);
        // Keep the pool warm: the sandboxes of the lost worker come back at once.
        if (!this.#closed) this.#fill();
      };
      this.#workers.add(worker);
    }
    this.#timer ??= setInterval(() => this.#watchMemory(), MEMORY_TICK_MS).unref();
  }

  /** Stops a worker whose resident memory is over its cap; its blocks end as memory errors. */
  #watchMemory(): void {
    for (const worker of this.#workers) {
      if (worker.tenants === 0) continue;
      const resident = worker.residentMb();
      const cap = worker.capMb(this.#baseMb);
      if (resident !== undefined && resident > cap) {
        worker.kill({ kind: "memory", detail: `its worker process went over its memory cap of ${Math.round(cap)} MB and was stopped` });
      }
    }
  }
}
