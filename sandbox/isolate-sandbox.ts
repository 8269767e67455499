import ivm from "isolated-vm";
import {
  MAX_FINAL_CHARS,
  MAX_VALUE_DEPTH,
  sandboxLimits,
  type ExecutionError,
  type ExecutionResult,
  type GuestValue,
  type HostFunction,
  type Sandbox,
  type SandboxFactory,
  type SandboxOptions,
} from "./sandbox.ts";
import { GuestSyntaxError, toReplProgram, type ReplProgram } from "./repl-rewrite.ts";
import { redactHostPaths } from "./redact.ts";
import { semiSpaceMb } from "./nursery.ts";
import { persistentBytes } from "./json-size.ts";
import { answerWithin, applyExpose, applyStub, createLive, releaseLive, setGuestGlobal, type Live, type LostReason } from "./live-isolate.ts";
import { watchBlock } from "./watchdog.ts";
import { locate, parseArguments, readOutcome, reply, replyError, tooDeep } from "./guest-replies.ts";

const MB = 1024 * 1024;
/** How long the host waits for an isolate that runs no block (heap statistics, the memory check after a block, at least a compile) before writing it off as stuck. */
const CHECK_WITHIN_MS = 5_000;

interface BlockState {
  output: string;
  outputTruncated: boolean;
  final?: { value: GuestValue };
  hostWaitMs: number;
}

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

class IsolateSandbox implements Sandbox {
  readonly #timeoutMs: number;
  readonly #memoryLimitMb: number;
  readonly #maxOutputChars: number;
  readonly #maxHostWaitMs: number;
  readonly #persistent = new Map<string, { value: GuestValue; bytes: number }>();
  readonly #stubs = new Map<string, string>();
  readonly #functions = new Map<string, HostFunction>();
  #live?: Live;
  /** The first isolate being started: concurrent first uses wait for the same one. */
  #starting?: Promise<void>;
  /** The tail of the queue of set-up calls (see `#serial`). */
  #setup: Promise<unknown> = Promise.resolve();
  #disposed = false;
  #block?: BlockState;
  #blockCount = 0;
  #busy = false;
  /** The isolate was lost while no block ran (V8's heap limit disposed it later, say): the next block is told and does not run. */
  #lostBetweenBlocks = false;

  constructor(options: SandboxOptions) {
    const { timeoutMs, memoryLimitMb, maxOutputChars, maxHostWaitMs } = sandboxLimits(options);
    this.#timeoutMs = timeoutMs;
    this.#memoryLimitMb = memoryLimitMb;
    this.#maxOutputChars = maxOutputChars;
    this.#maxHostWaitMs = maxHostWaitMs;
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
        else await setGuestGlobal(live, name, value);
      }
    } catch (error) {
      failure = error;
    }
    const live = this.#live;
    const stats = live && !live.isolate.isDisposed && !live.lost ? await answerWithin(live, live.isolate.getHeapStatistics(), CHECK_WITHIN_MS).catch(() => undefined) : undefined;
    if (stats && stats.used_heap_size <= stats.heap_size_limit) {
      if (failure) throw failure;
      return;
    }
    if (previous) this.#persistent.set(name, previous);
    else this.#persistent.delete(name);
    await this.#renew();
    throw new RangeError(`the sandbox global '${name}' is too large: it does not fit in the sandbox's memory limit of ${this.#memoryLimitMb + Math.ceil(bytes / MB)} MB. Pass a smaller value, or a string (the most compact form).`);
  }

  setGlobal(name: string, value: GuestValue): Promise<void> {
    return this.#serial(() => this.#setGlobal(name, value));
  }

  async #setGlobal(name: string, value: GuestValue): Promise<void> {
    const live = await this.#current();
    try {
      await setGuestGlobal(live, name, value);
    } catch (error) {
      // Over the memory limit while copying the value in: a loss for the next block to report, not a read-only name.
      if (!live.isolate.isDisposed && !live.lost) throw error;
      this.#lostBetweenBlocks = true;
      await this.#renew();
    }
  }

  defineStub(name: string, message: string): Promise<void> {
    return this.#serial(async () => {
      // The isolate first: starting one applies every stub already recorded.
      const live = await this.#current();
      this.#stubs.set(name, message);
      await applyStub(live, name, message);
    });
  }

  exposeFunction(name: string, fn: HostFunction): Promise<void> {
    return this.#serial(async () => {
      const live = await this.#current();
      this.#functions.set(name, fn);
      await applyExpose(live, name);
    });
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
      return await this.#execute(code);
    } finally {
      this.#busy = false;
    }
  }

  async #execute(code: string): Promise<ExecutionResult> {
    const started = performance.now();
    const block: BlockState = { output: "", outputTruncated: false, hostWaitMs: 0 };
    const finish = (error?: ExecutionError, reset = false): ExecutionResult => ({
      output: block.output,
      outputTruncated: block.outputTruncated,
      ...(block.final ? { final: block.final } : {}),
      ...(error ? { error } : {}),
      reset,
      durationMs: performance.now() - started,
      hostWaitMs: block.hostWaitMs,
    });

    const live = await this.#current();
    if (this.#lostBetweenBlocks) {
      this.#lostBetweenBlocks = false;
      return finish({ kind: "memory", name: "SandboxLost", message: `the sandbox went over its memory limit of ${this.#memoryLimit()} MB after the previous block (too much data kept in variables) and was restarted before this block, which therefore did not run` }, true);
    }
    let program: ReplProgram;
    try {
      program = toReplProgram(code, { scope: live.repl, reserved: [...this.#stubs.keys(), ...this.#functions.keys(), ...this.#persistent.keys()] });
    } catch (error) {
      if (error instanceof GuestSyntaxError) {
        return finish({ kind: "syntax", name: "SyntaxError", message: error.message, line: error.line, column: error.column });
      }
      throw error;
    }

    const filename = `block-${++this.#blockCount}.js`;
    let script: ivm.Script;
    try {
      // Compiling is not the block's own time, but no isolate may hold a session: it is bounded too.
      script = await answerWithin(live, live.isolate.compileScript(program.code, { filename }), Math.max(this.#timeoutMs, CHECK_WITHIN_MS));
    } catch (error) {
      if (live.lost === "stuck") {
        await this.#renew();
        return finish({ kind: "timeout", name: "TimeoutError", message: `the block did not compile within ${Math.max(this.#timeoutMs, CHECK_WITHIN_MS)} ms and was stopped` }, true);
      }
      if (live.isolate.isDisposed || live.lost) {
        await this.#renew();
        return finish({ kind: "memory", name: "RangeError", message: `the block went over the memory limit of ${this.#memoryLimit()} MB while it was compiled and was stopped` }, true);
      }
      const message = String((error as Error)?.message ?? error);
      return finish({ kind: "syntax", name: "SyntaxError", message: redactHostPaths(message).replace(/\s*\[.*\]$/, ""), ...locate(message, filename, program) });
    }
    live.repl.record(program);

    this.#block = block;
    if (live.inFlight > 0) live.waitingSince = started;
    const watchdog = watchBlock(live, { timeoutMs: this.#timeoutMs, maxHostWaitMs: this.#maxHostWaitMs }, block, started);
    let outcome: unknown;
    let failure: { error: unknown } | undefined;
    const runBlock = async (): Promise<unknown> => {
      // Results of host calls that arrived between blocks run now, under this block's watchdog.
      for (const [id, json] of live.queued.splice(0)) this.#settle(live, id, json);
      const body = (await script.run(live.context, { reference: true, release: true })) as ivm.Reference;
      let result: unknown;
      try {
        result = await live.runtime.run.apply(undefined, [body.derefInto(), this.#maxOutputChars], { result: { promise: true, copy: true } });
      } finally {
        if (!live.isolate.isDisposed) body.release();
      }
      // Callbacks of host calls that are being settled belong to this block.
      while (live.settling.size > 0) await Promise.all([...live.settling]);
      return result;
    };
    try {
      // A written-off isolate (a catastrophic error, or stuck after the watchdog's dispose) may never settle its promises; stop waiting on them.
      outcome = await Promise.race([runBlock(), live.broken]);
    } catch (error) {
      failure = { error };
    } finally {
      watchdog.stop();
      block.hostWaitMs += live.inFlight > 0 ? performance.now() - live.waitingSince : 0;
      this.#block = undefined;
    }

    // A stopped or lost isolate is replaced; a catastrophic OOM counts as memory even when the watchdog fired too.
    const stopped = watchdog.reason();
    const lost = live.lost;
    if (lost || stopped || live.isolate.isDisposed) {
      await this.#renew();
      if (lost === "stuck") {
        const limit = stopped ? `its time limit of ${this.#timeoutMs} ms ran out` : `it went over the memory limit of ${this.#memoryLimit()} MB`;
        const message = `the block did not stop when ${limit} and was abandoned: a built-in over millions of elements (fill, sort, join, a BigInt of millions of digits) cannot be interrupted; work on smaller pieces`;
        return finish(stopped ? { kind: "timeout", name: "TimeoutError", message } : { kind: "memory", name: "RangeError", message }, true);
      }
      if (stopped && !lost) {
        const message =
          stopped === "timeout"
            ? `the block did not finish within ${this.#timeoutMs} ms and was stopped`
            : `the block waited on host functions for more than ${this.#maxHostWaitMs} ms in total and was stopped`;
        return finish({ kind: "timeout", name: "TimeoutError", message }, true);
      }
      const overran = stopped === "timeout" ? ` after running past its time limit of ${this.#timeoutMs} ms` : "";
      return finish({ kind: "memory", name: "RangeError", message: `the block went over the memory limit of ${this.#memoryLimit()} MB${overran} and was stopped` }, true);
    }
    if (failure) {
      const error = failure.error as Error | undefined;
      const name = typeof error?.name === "string" ? error.name : "Error";
      return finish({ kind: "runtime", name, message: redactHostPaths(String(error?.message ?? error)), ...locate(String(error?.stack ?? ""), filename, program) });
    }
    // What the block kept can be over the limit without V8 noticing yet; it would dispose the isolate later, between blocks.
    const kept = await answerWithin(live, live.isolate.getHeapStatistics(), CHECK_WITHIN_MS).catch(() => undefined);
    if (kept && kept.externally_allocated_size > 0 && kept.used_heap_size + kept.externally_allocated_size > live.limitMb * MB) {
      // ArrayBuffers too: isolated-vm checks heap plus ArrayBuffers against the limit, after a full
      // collection, whenever something compiles. Let it decide now, not when the next block compiles.
      await answerWithin(live, live.context.eval("0"), CHECK_WITHIN_MS).catch(() => undefined);
    }
    if (live.lost === "stuck") {
      await this.#renew();
      return finish({ kind: "memory", name: "RangeError", message: `the sandbox stopped answering after the block (collecting what it left in variables, most likely) and was restarted (keep counts, slices or summaries instead of large data)` }, true);
    }
    if (live.isolate.isDisposed || live.lost || (kept && kept.used_heap_size > kept.heap_size_limit)) {
      await this.#renew();
      return finish({ kind: "memory", name: "RangeError", message: `the block left more data in variables than the memory limit of ${this.#memoryLimit()} MB allows; the sandbox was restarted (keep counts, slices or summaries instead)` }, true);
    }
    const thrown = readOutcome(outcome);
    // The guest's own text goes back verbatim (host errors it rethrows were redacted when they reached it).
    if (thrown) return finish({ kind: "runtime", name: thrown.name, message: thrown.message, ...locate(thrown.stack, filename, program) });
    return finish();
  }

  reset(): Promise<void> {
    return this.#serial(async () => {
      this.#lostBetweenBlocks = false;
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
    this.#lostBetweenBlocks = true;
    await this.#renew();
    return this.#alive();
  }

  /** Replaces the isolate with a fresh one and re-applies persistent globals, stubs and functions. */
  async #renew(): Promise<void> {
    if (this.#disposed) throw new Error("sandbox was disposed; create a new one.");
    this.#release();
    const live: Live = await createLive(this.#memoryLimit(), semiSpaceMb(this.#memoryLimitMb), {
      output: (text) => this.#onOutput(text),
      final: (json) => this.#onFinal(json),
      callStart: (caller, name, args, id) => void this.#callAsync(caller, name, args, id),
      lost: (why) => {
        for (const listener of lostListeners) listener(why);
      },
    });
    this.#live = live;
    for (const [name, { value }] of this.#persistent) await setGuestGlobal(live, name, value);
    for (const [name, message] of this.#stubs) await applyStub(live, name, message);
    for (const name of this.#functions.keys()) await applyExpose(live, name);
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

  #memoryLimit(): number {
    let bytes = 0;
    for (const { bytes: size } of this.#persistent.values()) bytes += size;
    return this.#memoryLimitMb + Math.ceil(bytes / MB);
  }

  #onOutput(text: unknown): boolean {
    const block = this.#block;
    if (!block || block.outputTruncated || block.final || typeof text !== "string") return false;
    const room = this.#maxOutputChars - block.output.length;
    if (text.length > room) {
      block.output += text.slice(0, Math.max(0, room));
      block.outputTruncated = true;
      return false;
    }
    block.output += text;
    return true;
  }

  /** Records the block's answer; returns why it is refused, if it is (the guest's FINAL then throws it). */
  #onFinal(json: unknown): string | undefined {
    const block = this.#block;
    if (!block || block.final || typeof json !== "string") return undefined;
    if (json.length > MAX_FINAL_CHARS) return `FINAL's answer is ${json.length.toLocaleString("en-US")} characters of JSON, over the limit of ${MAX_FINAL_CHARS.toLocaleString("en-US")}; answer with a summary, a count or a slice.`;
    if (tooDeep(json)) return `FINAL needs a JSON value nested at most ${MAX_VALUE_DEPTH} levels deep; flatten it or answer with a string.`;
    block.final = { value: JSON.parse(json) as GuestValue };
    return undefined;
  }

  /** Why a host call from the guest is refused right now, if it is. */
  #refuse(name: unknown, args: unknown): string | undefined {
    if (!this.#block) return "host functions can only be called while a block runs";
    if (this.#block.final) return "FINAL was already called; this block can no longer call host functions";
    if (typeof name !== "string" || !this.#functions.has(name)) return `${String(name)} is not available`;
    // The arguments array itself is one level.
    if (typeof args === "string" && tooDeep(args, MAX_VALUE_DEPTH + 1)) return `${name}: arguments nested more than ${MAX_VALUE_DEPTH} levels deep are refused`;
    return undefined;
  }

  async #callAsync(live: Live, name: unknown, args: unknown, id: unknown): Promise<void> {
    const refused = this.#refuse(name, args);
    if (typeof id !== "number") return;
    if (refused) {
      this.#settle(live, id, replyError(new Error(refused)));
      return;
    }
    const fn = this.#functions.get(name as string)!;
    if (live.inFlight++ === 0) live.waitingSince = performance.now();
    let json: string;
    try {
      json = reply(await fn(...parseArguments(args)));
    } catch (error) {
      json = replyError(error);
    } finally {
      if (--live.inFlight === 0 && this.#block && this.#live === live) this.#block.hostWaitMs += performance.now() - live.waitingSince;
    }
    this.#settle(live, id, json);
  }

  /** Resolves a guest promise now if a block is running, otherwise at the start of the next block. */
  #settle(live: Live, id: number, json: string): void {
    if (live !== this.#live || live.isolate.isDisposed) return;
    if (!this.#block) {
      live.queued.push([id, json]);
      return;
    }
    // Settling fails only when the isolate went away meanwhile; nothing is waiting then.
    const settling: Promise<unknown> = live.runtime.settle
      .apply(undefined, [id, json], { arguments: { copy: true } })
      .catch(() => undefined)
      .finally(() => live.settling.delete(settling));
    live.settling.add(settling);
  }
}
