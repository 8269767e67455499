import ivm from "isolated-vm";
import {
  DEFAULT_MAX_OUTPUT_CHARS,
  DEFAULT_MEMORY_LIMIT_MB,
  DEFAULT_TIMEOUT_MS,
  type ExecutionError,
  type ExecutionResult,
  type GuestValue,
  type HostFunction,
  type Sandbox,
  type SandboxOptions,
} from "./sandbox.ts";
import { GuestSyntaxError, RUNTIME_NAME, toReplProgram, type ReplProgram } from "./repl-rewrite.ts";
import { GUEST_RUNTIME_SOURCE, HOST_CALLBACKS } from "./guest-runtime.ts";
import { redactHostPaths } from "./redact.ts";

const MB = 1024 * 1024;

interface Live {
  readonly isolate: ivm.Isolate;
  readonly context: ivm.Context;
}

interface BlockState {
  output: string;
  outputTruncated: boolean;
  final?: { value: GuestValue };
}

/**
 * Creates a sandbox backed by one isolated-vm isolate and one context, kept across
 * blocks like a REPL. Limits are enforced by the host: a watchdog disposes an
 * isolate whose block does not settle in time, and V8's heap limit ends one that
 * allocates too much; either way the next block runs on a fresh isolate.
 *
 * @example
 * const sandbox = await createIsolateSandbox({ timeoutMs: 5_000 });
 * const result = await sandbox.execute('const x = 2 + 2; FINAL(x)');
 * result.final?.value; // 4
 * sandbox.dispose();
 */
export async function createIsolateSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = new IsolateSandbox(options);
  await sandbox.reset();
  return sandbox;
}

class IsolateSandbox implements Sandbox {
  readonly #timeoutMs: number;
  readonly #memoryLimitMb: number;
  readonly #maxOutputChars: number;
  readonly #persistent = new Map<string, { value: GuestValue; bytes: number }>();
  readonly #stubs = new Map<string, string>();
  readonly #functions = new Map<string, { fn: HostFunction; async: boolean }>();
  #live?: Live;
  #disposed = false;
  #block?: BlockState;
  #blockCount = 0;
  #inFlight = 0;
  #inFlightSince = 0;
  #hostWaitMs = 0;

  constructor({ timeoutMs = DEFAULT_TIMEOUT_MS, memoryLimitMb = DEFAULT_MEMORY_LIMIT_MB, maxOutputChars = DEFAULT_MAX_OUTPUT_CHARS }: SandboxOptions) {
    for (const [name, value] of Object.entries({ timeoutMs, memoryLimitMb, maxOutputChars })) {
      if (!Number.isFinite(value) || value <= 0) throw new RangeError(`sandbox option ${name} must be a positive number, got ${value}.`);
    }
    this.#timeoutMs = timeoutMs;
    this.#memoryLimitMb = memoryLimitMb;
    this.#maxOutputChars = maxOutputChars;
  }

  async setPersistentGlobal(name: string, value: GuestValue): Promise<void> {
    const bytes = typeof value === "string" ? value.length * 2 : JSON.stringify(value).length * 3;
    const before = this.#memoryLimit();
    this.#persistent.set(name, { value, bytes });
    // A large value needs a bigger heap; the limit is fixed per isolate, so start a new one.
    if (this.#memoryLimit() > before) await this.reset();
    else await this.#set(this.#alive(), name, value);
  }

  async setGlobal(name: string, value: GuestValue): Promise<void> {
    await this.#set(this.#alive(), name, value);
  }

  async defineStub(name: string, message: string): Promise<void> {
    this.#stubs.set(name, message);
    await this.#alive().context.evalClosure(`${RUNTIME_NAME}.stub($0, $1)`, [name, message]);
  }

  async exposeFunction(name: string, fn: HostFunction, options: { readonly async?: boolean } = {}): Promise<void> {
    this.#functions.set(name, { fn, async: options.async === true });
    await this.#alive().context.evalClosure(`${RUNTIME_NAME}.expose($0, $1)`, [name, options.async === true]);
  }

  async execute(code: string): Promise<ExecutionResult> {
    const started = performance.now();
    const block: BlockState = { output: "", outputTruncated: false };
    const finish = (error?: ExecutionError, reset = false): ExecutionResult => ({
      output: block.output,
      outputTruncated: block.outputTruncated,
      ...(block.final ? { final: block.final } : {}),
      ...(error ? { error } : {}),
      reset,
      durationMs: performance.now() - started,
      hostWaitMs: this.#hostWaitMs,
    });

    let program: ReplProgram;
    try {
      program = toReplProgram(code);
    } catch (error) {
      if (error instanceof GuestSyntaxError) {
        return finish({ kind: "syntax", name: "SyntaxError", message: error.message, line: error.line, column: error.column });
      }
      throw error;
    }

    const live = this.#alive();
    const filename = `block-${++this.#blockCount}.js`;
    let script: ivm.Script;
    try {
      script = await live.isolate.compileScript(program.code, { filename });
    } catch (error) {
      return finish({ kind: "syntax", name: "SyntaxError", message: redactHostPaths(String((error as Error).message)).replace(/\s*\[.*\]$/, ""), ...locate(String((error as Error).message), filename, program) });
    }

    this.#block = block;
    this.#hostWaitMs = 0;
    const watchdog = this.#watch(live, started);
    try {
      const outcome: unknown = await script.run(live.context, { promise: true, copy: true });
      if (typeof outcome === "string") {
        const thrown = JSON.parse(outcome) as { name: string; message: string; stack: string };
        return finish({ kind: "runtime", name: thrown.name, message: redactHostPaths(thrown.message), ...locate(thrown.stack, filename, program) });
      }
      return finish();
    } catch (error) {
      if (watchdog.fired()) {
        await this.reset();
        return finish({ kind: "timeout", name: "TimeoutError", message: `the block did not finish within ${this.#timeoutMs} ms and was stopped` }, true);
      }
      if (live.isolate.isDisposed) {
        await this.reset();
        return finish({ kind: "memory", name: "RangeError", message: `the block went over the memory limit of ${this.#memoryLimit()} MB and was stopped` }, true);
      }
      const message = redactHostPaths(String((error as Error)?.message ?? error));
      return finish({ kind: "runtime", name: (error as Error)?.name ?? "Error", message });
    } finally {
      watchdog.stop();
      this.#block = undefined;
      if (!live.isolate.isDisposed) script.release();
    }
  }

  async reset(): Promise<void> {
    if (this.#disposed) throw new Error("sandbox was disposed; create a new one.");
    this.#release();
    const isolate = new ivm.Isolate({ memoryLimit: this.#memoryLimit() });
    const context = await isolate.createContext();
    const global = context.global;
    await global.set(HOST_CALLBACKS.output, new ivm.Callback((text: string) => this.#onOutput(text)));
    await global.set(HOST_CALLBACKS.final, new ivm.Callback((json: string) => this.#onFinal(json)));
    await global.set(HOST_CALLBACKS.callSync, new ivm.Callback((name: string, args: string) => this.#callSync(name, args)));
    await global.set(HOST_CALLBACKS.callStart, new ivm.Callback((name: string, args: string, id: number) => void this.#callAsync(name, args, id)));
    await context.eval(GUEST_RUNTIME_SOURCE, { filename: "rlmkit-runtime.js" });
    const live = { isolate, context };
    this.#live = live;
    for (const [name, { value }] of this.#persistent) await this.#set(live, name, value);
    for (const [name, message] of this.#stubs) await context.evalClosure(`${RUNTIME_NAME}.stub($0, $1)`, [name, message]);
    for (const [name, { async }] of this.#functions) await context.evalClosure(`${RUNTIME_NAME}.expose($0, $1)`, [name, async]);
  }

  dispose(): void {
    this.#disposed = true;
    this.#release();
  }

  #release(): void {
    const live = this.#live;
    this.#live = undefined;
    if (!live) return;
    live.context.release();
    if (!live.isolate.isDisposed) live.isolate.dispose();
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

  async #set(live: Live, name: string, value: GuestValue): Promise<void> {
    if (value !== null && typeof value === "object") {
      await live.context.global.set(name, new ivm.ExternalCopy(value).copyInto({ release: true }));
    } else {
      await live.context.global.set(name, value);
    }
  }

  /** Disposes the isolate once the block has used its time, not counting waits on async host functions. */
  #watch(live: Live, started: number): { fired(): boolean; stop(): void } {
    let fired = false;
    let timer: NodeJS.Timeout | undefined;
    const check = (): void => {
      const now = performance.now();
      if (this.#inFlight > 0) {
        timer = setTimeout(check, Math.min(this.#timeoutMs, 250));
        return;
      }
      const deadline = started + this.#timeoutMs + this.#hostWaitMs;
      if (now >= deadline) {
        fired = true;
        if (!live.isolate.isDisposed) live.isolate.dispose();
        return;
      }
      timer = setTimeout(check, deadline - now + 1);
    };
    timer = setTimeout(check, this.#timeoutMs);
    return { fired: () => fired, stop: () => clearTimeout(timer) };
  }

  #onOutput(text: string): boolean {
    const block = this.#block;
    if (!block || block.outputTruncated) return false;
    const room = this.#maxOutputChars - block.output.length;
    if (text.length > room) {
      block.output += text.slice(0, Math.max(0, room));
      block.outputTruncated = true;
      return false;
    }
    block.output += text;
    return true;
  }

  #onFinal(json: string): void {
    const block = this.#block;
    if (!block || block.final) return;
    block.final = { value: JSON.parse(json) as GuestValue };
  }

  #callSync(name: string, args: string): string {
    const entry = this.#functions.get(name);
    if (!entry) return JSON.stringify({ error: `${name} is not available` });
    try {
      return reply(entry.fn(...(JSON.parse(args) as GuestValue[])));
    } catch (error) {
      return replyError(error);
    }
  }

  async #callAsync(name: string, args: string, id: number): Promise<void> {
    const live = this.#live;
    const entry = this.#functions.get(name);
    if (!live || !entry) return;
    if (this.#inFlight++ === 0) this.#inFlightSince = performance.now();
    let json: string;
    try {
      json = reply(await entry.fn(...(JSON.parse(args) as GuestValue[])));
    } catch (error) {
      json = replyError(error);
    } finally {
      if (--this.#inFlight === 0) this.#hostWaitMs += performance.now() - this.#inFlightSince;
    }
    if (live.isolate.isDisposed) return;
    // Settling can fail only when the isolate went away meanwhile; nothing is waiting then.
    await live.context.evalClosure(`${RUNTIME_NAME}.settle($0, $1)`, [id, json]).catch(() => undefined);
  }
}

function reply(value: unknown): string {
  try {
    return JSON.stringify({ value: value === undefined ? null : value });
  } catch (error) {
    return replyError(error);
  }
}

function replyError(error: unknown): string {
  const err = error as Error;
  return JSON.stringify({ error: redactHostPaths(String(err?.message ?? error)), errorName: typeof err?.name === "string" ? err.name : "Error" });
}

/** Finds the first stack frame in the block's own file and maps it to the caller's line and column. */
function locate(stack: string, filename: string, program: ReplProgram): { line?: number; column?: number } {
  const match = new RegExp(`${filename.replace(/[.]/g, "\\.")}:(\\d+):(\\d+)`).exec(stack);
  if (!match) return {};
  const line = Number(match[1]);
  let column = Number(match[2]);
  const lines = program.code.split("\n").length;
  if (line >= lines) return {}; // the wrapper's closing line
  if (line === 1) column = Math.max(1, column - program.prefixLength);
  return { line, column };
}
