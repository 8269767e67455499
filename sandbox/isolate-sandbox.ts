import {
  sandboxLimits,
  type ExecutionResult,
  type GuestValue,
  type HostFunction,
  type Sandbox,
  type SandboxFactory,
  type SandboxOptions,
} from "./sandbox.ts";
import type ivm from "isolated-vm";
import { semiSpaceMb } from "./nursery.ts";
import { persistentBytes } from "./json-size.ts";
import { answerWithin, applyExpose, applyStub, CHECK_WITHIN_MS, createLive, releaseLive, setGuestGlobal, type Live, type LostReason } from "./live-isolate.ts";
import { BlockRunner } from "./isolate-block.ts";

const MB = 1024 * 1024;

/**
 * Creates a sandbox backed by one isolated-vm isolate and one context, kept across
 * blocks like a REPL. Limits are enforced by the host: a watchdog disposes an
 * isolate whose block does not settle in time (or burns its time in a busy loop
 * while a host call is pending), and V8's heap limit ends one that allocates too
 * much; either way the next block runs on a fresh isolate, with persistent globals,
 * stubs and exposed functions re-applied.
 *
 * Guest code never runs outside {@link Sandbox.execute}: results of async host
 * calls that arrive between blocks are delivered when the next block starts.
 *
 * @example
 * const sandbox = await createIsolateSandbox({ timeoutMs: 5_000 });
 * const result = await sandbox.execute('const x = 2 + 2; FINAL(x)');
 * result.final?.value; // 4
 * await sandbox.dispose();
 */
export async function createIsolateSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  // The isolate itself starts on first use: a session that sets its context first
  // (which may need a bigger heap) then creates one isolate, not two.
  return new IsolateSandbox(options);
}

const lostListeners = new Set<(why: LostReason) => void>();

/**
 * Calls `listener` whenever an isolate in this process is written off with its
 * thread possibly left behind: after a catastrophic out-of-memory error isolated-vm
 * parks the thread for good (its heap is never freed and the process can no longer
 * exit by itself, not even with `process.exit`); a stuck isolate's thread runs on
 * until its built-in ends. A process that hosts isolates should be replaced soon after.
 */
export function onIsolateLost(listener: (why: LostReason) => void): void {
  lostListeners.add(listener);
}

/** The in-process backend: each sandbox is an isolate in this process (see {@link createIsolateSandbox}). */
export const isolateSandboxFactory: SandboxFactory = Object.freeze({ backend: "isolate", create: createIsolateSandbox });

/**
 * The isolate's lifecycle: starting it on first use, replacing it (with what must
 * survive re-applied) and the set-up calls between blocks. Blocks, and the guest's
 * calls into the host while one runs, are the {@link BlockRunner}'s.
 */
class IsolateSandbox implements Sandbox {
  readonly #memoryLimitMb: number;
  readonly #blocks: BlockRunner;
  readonly #persistent = new Map<string, { value: GuestValue; bytes: number }>();
  readonly #stubs = new Map<string, string>();
  readonly #functions = new Map<string, HostFunction>();
  #live?: Live;
  /** The first isolate being started: concurrent first uses wait for the same one. */
  #starting?: Promise<void>;
  /** The tail of the queue of set-up calls (see `#serial`). */
  #setup: Promise<unknown> = Promise.resolve();
  #disposed = false;
  #busy = false;
  /** The isolate was lost while no block ran (V8's heap limit disposed it later, say, or it stopped answering a set-up call): the next block is told and does not run. */
  #lostBetweenBlocks?: "memory" | "stuck";

  constructor(options: SandboxOptions) {
    const limits = sandboxLimits(options);
    this.#memoryLimitMb = limits.memoryLimitMb;
    this.#blocks = new BlockRunner(
      {
        current: () => this.#current(),
        live: () => this.#live,
        takeLostBetweenBlocks: () => {
          const lost = this.#lostBetweenBlocks;
          this.#lostBetweenBlocks = undefined;
          return lost;
        },
        reserved: () => [...this.#stubs.keys(), ...this.#functions.keys(), ...this.#persistent.keys()],
        renew: () => this.#renew(),
        memoryLimit: () => this.#memoryLimit(),
        functions: this.#functions,
      },
      limits,
    );
  }

  /**
   * Persistent values get room of their own on top of the guest's limit (by an
   * estimate of their size). A value that does not fit in it is refused, so a
   * fresh isolate never starts over its limit.
   */
  setPersistentGlobal(name: string, value: GuestValue): Promise<void> {
    return this.#serial(() => this.#setPersistentGlobal(name, value));
  }

  async #setPersistentGlobal(name: string, value: GuestValue): Promise<void> {
    const bytes = persistentBytes(value);
    const previous = this.#persistent.get(name);
    this.#persistent.set(name, { value, bytes });
    let failure: unknown;
    try {
      if (!this.#live) {
        // The first isolate starts with every persistent value, this one included, and the heap it needs.
        await this.#start();
      } else {
        const live = await this.#current();
        // A large value needs a bigger heap; the limit is fixed per isolate, so start a new one.
        if (live.limitMb < this.#memoryLimit()) await this.#renew();
        // An isolate that stopped answering is replaced, the value with it; one that went over its limit means the value is too large.
        else await setGuestGlobal(live, name, value, bytes).catch((error: unknown) => (live.lost === "stuck" ? this.#replaceLost(live) : Promise.reject(error)));
      }
    } catch (error) {
      failure = error;
    }
    const stats = await this.#heapStatistics();
    if (stats && stats.used_heap_size <= stats.heap_size_limit) {
      if (failure) throw failure;
      return;
    }
    if (previous) this.#persistent.set(name, previous);
    else this.#persistent.delete(name);
    await this.#renew();
    throw new RangeError(`the sandbox global '${name}' is too large: it does not fit in the sandbox's memory limit of ${Math.floor(this.#memoryLimitMb) + Math.ceil(bytes / MB)} MB. Pass a smaller value, or a string (the most compact form).`);
  }

  setGlobal(name: string, value: GuestValue): Promise<void> {
    return this.#serial(() => this.#setGlobal(name, value));
  }

  #setGlobal(name: string, value: GuestValue): Promise<void> {
    // Over the memory limit while copying the value in, or no answer in time: a loss for the next block to report, not a read-only name.
    return this.#onLive((live) => setGuestGlobal(live, name, value));
  }

  defineStub(name: string, message: string): Promise<void> {
    // Recorded once the isolate is there: starting one applies every stub already recorded.
    return this.#serial(() =>
      this.#onLive((live) => {
        this.#stubs.set(name, message);
        return applyStub(live, name, message);
      }),
    );
  }

  exposeFunction(name: string, fn: HostFunction): Promise<void> {
    return this.#serial(() =>
      this.#onLive((live) => {
        this.#functions.set(name, fn);
        return applyExpose(live, name);
      }),
    );
  }

  /**
   * Runs a set-up step on the live isolate (each of its waits is bounded). An isolate
   * lost meanwhile, over its memory limit or written off as stuck, is replaced with
   * persistent globals, stubs and functions re-applied (a stub or function just
   * recorded included), and the next block is told; any other failure is the caller's.
   */
  async #onLive(step: (live: Live) => Promise<void>): Promise<void> {
    const live = await this.#current();
    try {
      await step(live);
    } catch (error) {
      if (!live.isolate.isDisposed && !live.lost) throw error;
      await this.#replaceLost(live);
    }
  }

  /** The live isolate's heap statistics, if it answers in time; one written off as stuck meanwhile is replaced (the next block is told) and the fresh one asked. */
  async #heapStatistics(again = true): Promise<ivm.HeapStatistics | undefined> {
    const live = this.#live;
    if (!live || live.isolate.isDisposed || live.lost) return undefined;
    const stats = await answerWithin(live, live.isolate.getHeapStatistics(), CHECK_WITHIN_MS).catch(() => undefined);
    if (live.lost !== "stuck" || !again) return stats;
    return this.#replaceLost(live).then(() => this.#heapStatistics(false), () => undefined);
  }

  /**
   * Runs set-up calls (globals, stubs, functions, reset) one at a time, in call order:
   * one of them may replace the isolate, which must not happen under another.
   */
  #serial<T>(op: () => Promise<T>): Promise<T> {
    const result = this.#setup.then(op);
    this.#setup = result.catch(() => undefined);
    return result;
  }

  async execute(code: string): Promise<ExecutionResult> {
    if (this.#busy) throw new Error("sandbox.execute was called while another block is still running; await each block before the next.");
    this.#busy = true;
    try {
      return await this.#blocks.execute(code);
    } finally {
      this.#busy = false;
    }
  }

  reset(): Promise<void> {
    return this.#serial(async () => {
      this.#lostBetweenBlocks = undefined;
      await this.#renew();
    });
  }

  /** Starts the first isolate, once however many first uses arrive together. */
  async #start(): Promise<void> {
    if (this.#live) return;
    this.#starting ??= this.#renew().finally(() => (this.#starting = undefined));
    await this.#starting;
  }

  /** The live isolate, started on first use; one that went away while no block ran is replaced, and the next block is told. */
  async #current(): Promise<Live> {
    if (!this.#disposed && !this.#live) {
      await this.#start();
      return this.#alive();
    }
    const live = this.#alive();
    if (!live.isolate.isDisposed && !live.lost) return live;
    await this.#replaceLost(live);
    return this.#alive();
  }

  /** Replaces an isolate lost while no block ran; the next block is told whether it stopped answering or went over its memory limit. */
  async #replaceLost(lost: Live): Promise<void> {
    this.#lostBetweenBlocks = lost.lost === "stuck" ? "stuck" : "memory";
    await this.#renew();
  }

  /** Replaces the isolate with a fresh one and re-applies persistent globals, stubs and functions. */
  async #renew(): Promise<void> {
    if (this.#disposed) throw new Error("sandbox was disposed; create a new one.");
    this.#release();
    const live: Live = await createLive(this.#memoryLimit(), semiSpaceMb(this.#memoryLimitMb), {
      output: (text) => this.#blocks.output(text),
      final: (json) => this.#blocks.final(json),
      callStart: (caller, name, args, id) => this.#blocks.callStart(caller, name, args, id),
      lost: (why) => {
        for (const listener of lostListeners) listener(why);
      },
    });
    this.#live = live;
    try {
      for (const [name, { value, bytes }] of this.#persistent) await setGuestGlobal(live, name, value, bytes);
      for (const [name, message] of this.#stubs) await applyStub(live, name, message);
      for (const name of this.#functions.keys()) await applyExpose(live, name);
    } catch (error) {
      if (live.lost !== "stuck") throw error;
      throw new Error("a new sandbox isolate did not take its persistent globals, stubs and functions in time and was written off as stuck; the next call starts another");
    }
  }

  async dispose(): Promise<void> {
    this.#disposed = true;
    this.#release();
  }

  #release(): void {
    const live = this.#live;
    this.#live = undefined;
    if (live) releaseLive(live);
  }

  #alive(): Live {
    if (this.#disposed || !this.#live) throw new Error("sandbox was disposed; create a new one.");
    return this.#live;
  }

  // Whole megabytes, as isolated-vm keeps an isolate's limit (and `Live.limitMb`, which this is compared with).
  #memoryLimit(): number {
    let bytes = 0;
    for (const { bytes: size } of this.#persistent.values()) bytes += size;
    return Math.floor(this.#memoryLimitMb) + Math.ceil(bytes / MB);
  }
}
