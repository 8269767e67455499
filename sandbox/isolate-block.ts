import ivm from "isolated-vm";
import {
  MAX_FINAL_CHARS,
  MAX_VALUE_DEPTH,
  type ExecutionError,
  type ExecutionResult,
  type GuestValue,
  type HostFunction,
  type SandboxLimits,
} from "./sandbox.ts";
import { GuestSyntaxError, toReplProgram, type ReplProgram } from "./repl-rewrite.ts";
import { redactHostPaths } from "./redact.ts";
import { answerWithin, askAgainOnGuestError, CHECK_WITHIN_MS, type Live, type LiveCallbacks } from "./live-isolate.ts";
import { watchBlock } from "./watchdog.ts";
import { heapAsTheRunEnds, keptOverLimit } from "./heap-check.ts";
import { locate, parseArguments, readOutcome, reply, replyError, tooDeep } from "./guest-replies.ts";

interface BlockState {
  output: string;
  outputTruncated: boolean;
  final?: { value: GuestValue };
  hostWaitMs: number;
}

/** What a {@link BlockRunner} needs from the sandbox it runs blocks for, which owns the isolate's lifecycle. */
export interface BlockHost {
  /** The live isolate, started on first use (or replaced, when it went away while no block ran). */
  current(): Promise<Live>;
  /** The sandbox's isolate right now, if it has one: host calls of any other isolate are not settled. */
  live(): Live | undefined;
  /** Once after the isolate was lost while no block ran, how (`stuck`: it stopped answering): the block that asks is told, and does not run. */
  takeLostBetweenBlocks(): "memory" | "stuck" | undefined;
  /** Names a block may not declare: stubs, exposed functions and persistent globals. */
  reserved(): string[];
  /** Replaces the isolate with a fresh one, persistent globals, stubs and functions re-applied. */
  renew(): Promise<void>;
  /** The heap limit in MB the isolate gets: the guest's own limit plus room for persistent globals. */
  memoryLimit(): number;
  /** The exposed host functions, by name. */
  readonly functions: ReadonlyMap<string, HostFunction>;
}

/**
 * Runs the blocks of one isolate sandbox, one at a time, and answers what the guest
 * runtime calls out for while a block runs: printed output, FINAL and async host
 * functions (the callbacks of {@link LiveCallbacks} but `lost`). A block is compiled
 * and run under the watchdog (one too long for the runtime to compile is compiled by the
 * host first, under a bound), and checked for what it left in memory; an
 * isolate it stopped, lost or overfilled is replaced through its host, and the block
 * reports `reset: true`.
 */
export class BlockRunner implements Omit<LiveCallbacks, "lost"> {
  readonly #host: BlockHost;
  readonly #timeoutMs: number;
  readonly #maxOutputChars: number;
  readonly #maxHostWaitMs: number;
  #block?: BlockState;
  #blockCount = 0;

  constructor(host: BlockHost, { timeoutMs, maxOutputChars, maxHostWaitMs }: SandboxLimits) {
    this.#host = host;
    this.#timeoutMs = timeoutMs;
    this.#maxOutputChars = maxOutputChars;
    this.#maxHostWaitMs = maxHostWaitMs;
  }

  /** Runs one block (see `Sandbox.execute`); the caller makes sure blocks do not overlap. */
  async execute(code: string): Promise<ExecutionResult> {
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

    const live = await this.#host.current();
    const lostBefore = this.#host.takeLostBetweenBlocks();
    if (lostBefore === "stuck") {
      return finish({ kind: "timeout", name: "SandboxLost", message: `the sandbox stopped answering after the previous block (code that block left running, such as a FinalizationRegistry callback, kept it busy) and was restarted before this block, which therefore did not run` }, true);
    }
    if (lostBefore) {
      return finish({ kind: "memory", name: "SandboxLost", message: `the sandbox went over its memory limit of ${this.#host.memoryLimit()} MB after the previous block (too much data kept in variables) and was restarted before this block, which therefore did not run` }, true);
    }
    let program: ReplProgram;
    try {
      program = toReplProgram(code, { scope: live.repl, reserved: this.#host.reserved() });
    } catch (error) {
      if (error instanceof GuestSyntaxError) {
        return finish({ kind: "syntax", name: "SyntaxError", message: error.message, line: error.line, column: error.column });
      }
      throw error;
    }

    const filename = `block-${++this.#blockCount}.js`;
    // The runtime compiles the block and runs it in one call (see its `compileRun`); the sourceURL names it in stack traces.
    // isolated-vm refuses code from strings longer than an eighth of the isolate's memory limit in bytes: a block that
    // long is compiled by the host first, under a bound of its own, as a script.
    const source = `${program.code}\n//# sourceURL=${filename}`;
    let script: ivm.Script | undefined;
    if (source.length >= (live.limitMb * 1024 * 1024) / 8) {
      const compiled = await this.#compile(live, program, filename, finish);
      if ("result" in compiled) return compiled.result;
      script = compiled.script;
    }
    this.#block = block;
    if (live.inFlight > 0) live.waitingSince = started;
    const watchdog = watchBlock(live, { timeoutMs: this.#timeoutMs, maxHostWaitMs: this.#maxHostWaitMs }, block, started);
    let outcome: unknown;
    let failure: { error: unknown } | undefined;
    let heapAtRunEnd: Promise<ivm.HeapStatistics | undefined> = Promise.resolve(undefined);
    const runBlock = async (): Promise<unknown> => {
      // Results of host calls that arrived between blocks run now, under this block's watchdog.
      for (const [id, json] of live.queued.splice(0)) this.#settle(live, id, json);
      let result: unknown;
      let failed: { error: unknown } | undefined;
      let body: ivm.Reference | undefined;
      try {
        body = script && ((await script.run(live.context, { reference: true, release: true })) as ivm.Reference);
        // A long block the host compiled is the REPL's once its top-level declarations were made.
        if (body) live.repl.record(program);
        const running = body
          ? live.runtime.run.apply(undefined, [body.derefInto(), this.#maxOutputChars], { result: { promise: true, copy: true } })
          : live.runtime.compileRun.apply(undefined, [source, this.#maxOutputChars], { arguments: { copy: true }, result: { promise: true, copy: true } });
        heapAtRunEnd = heapAsTheRunEnds(live);
        result = await running;
      } catch (error) {
        // isolated-vm fails a run whose task leaves a rejection unhandled, but the block's body may go on after
        // an await: it is still this block's, under its watchdog, until it ends.
        failed = { error };
        const ended = new Promise<void>((resolve) => (live.endWait = resolve));
        if ((await askAgainOnGuestError(live, () => live.runtime.ended.apply(undefined, [], { result: { copy: true } }))) === false) await ended;
        live.endWait = undefined;
        // The call may have failed for a rejection of an earlier block's callback while this block did not compile:
        // then that is its outcome (and nothing of it is recorded).
        if (!script) {
          const compile = await askAgainOnGuestError(live, () => live.runtime.compileOutcome.apply(undefined, [], { result: { copy: true } })).catch(() => undefined);
          if (typeof compile === "string") {
            failed = undefined;
            result = compile;
          }
        }
      } finally {
        if (body && !live.isolate.isDisposed) body.release();
      }
      // Callbacks of host calls that are being settled belong to this block.
      while (live.settling.size > 0) await Promise.all([...live.settling]);
      if (failed) throw failed.error;
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
    // A block that compiled is the REPL's from now on (its declarations exist), however its run ended; one that did
    // not left nothing. (An isolate that is replaced below takes its REPL state with it.)
    const thrown = failure ? undefined : readOutcome(outcome);
    if (!script && !thrown?.compile) live.repl.record(program);

    // A stopped or lost isolate is replaced; a catastrophic OOM counts as memory even when the watchdog fired too.
    const stopped = watchdog.reason();
    const lost = live.lost;
    if (lost || stopped || live.isolate.isDisposed) {
      await this.#host.renew();
      if (lost === "stuck") {
        const limit = stopped ? `its time limit of ${this.#timeoutMs} ms ran out` : `it went over the memory limit of ${this.#host.memoryLimit()} MB`;
        const message = `the block did not stop when ${limit} and was abandoned: a built-in over millions of elements (fill, sort, join, a BigInt of millions of digits), or compiling a very large block, cannot be interrupted; work on smaller pieces`;
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
      return finish({ kind: "memory", name: "RangeError", message: `the block went over the memory limit of ${this.#host.memoryLimit()} MB${overran} and was stopped` }, true);
    }
    // What the block kept is checked whether it ended well or not (a rejection it left unhandled fails it, say).
    const memory = await keptOverLimit(live, heapAtRunEnd);
    const error = failure?.error as Error | undefined;
    const failedAs = failure ? { name: typeof error?.name === "string" ? error.name : "Error", message: redactHostPaths(String(error?.message ?? error)) } : thrown;
    if (memory) {
      await this.#host.renew();
      if (memory === "stuck") {
        return finish({ kind: "memory", name: "RangeError", message: `the sandbox stopped answering after the block (collecting what it left in variables, most likely) and was restarted (keep counts, slices or summaries instead of large data)` }, true);
      }
      if (memory === "unchecked") {
        return finish({ kind: "memory", name: "RangeError", message: `the sandbox's memory could not be checked after the block (code it left running, FinalizationRegistry callbacks that leave rejections unhandled, kept failing every read) and was restarted` }, true);
      }
      const alsoFailed = failedAs ? ` (it had also failed: ${failedAs.name}: ${failedAs.message})` : "";
      return finish({ kind: "memory", name: "RangeError", message: `the block left more data in variables than the memory limit of ${this.#host.memoryLimit()} MB allows; the sandbox was restarted (keep counts, slices or summaries instead)${alsoFailed}` }, true);
    }
    if (failure) return finish({ kind: "runtime", name: failedAs!.name, message: failedAs!.message, ...locate(String(error?.stack ?? ""), filename, program) });
    // V8 refused what acorn parsed (a rare early error, or a parser's stack overflow), or the block's top-level
    // declarations failed; nothing of it ran.
    // The message is V8's, of the block's own source: no host path is in it, and none is redacted.
    if (thrown?.compile) return finish({ kind: thrown.name === "SyntaxError" ? "syntax" : "runtime", name: thrown.name, message: thrown.message });
    // The guest's own text goes back verbatim (host errors it rethrows were redacted when they reached it).
    if (thrown) return finish({ kind: "runtime", name: thrown.name, message: thrown.message, ...locate(thrown.stack, filename, program) });
    return finish();
  }

  // Compiles a block too long for the guest runtime to compile (see `execute`), bounded: no isolate may hold a
  // session. The script; or the block's result when it did not compile.
  async #compile(live: Live, program: ReplProgram, filename: string, finish: (error?: ExecutionError, reset?: boolean) => ExecutionResult): Promise<{ script: ivm.Script } | { result: ExecutionResult }> {
    const withinMs = Math.max(this.#timeoutMs, CHECK_WITHIN_MS);
    try {
      return { script: await answerWithin(live, live.isolate.compileScript(program.code, { filename }), withinMs) };
    } catch (error) {
      if (live.lost === "stuck") {
        await this.#host.renew();
        return { result: finish({ kind: "timeout", name: "TimeoutError", message: `the block did not compile within ${withinMs} ms and was stopped` }, true) };
      }
      if (live.isolate.isDisposed || live.lost) {
        await this.#host.renew();
        return { result: finish({ kind: "memory", name: "RangeError", message: `the block went over the memory limit of ${this.#host.memoryLimit()} MB while it was compiled and was stopped` }, true) };
      }
      const message = String((error as Error)?.message ?? error);
      return { result: finish({ kind: "syntax", name: "SyntaxError", message: redactHostPaths(message).replace(/\s*\[.*\]$/, ""), ...locate(message, filename, program) }) };
    }
  }

  /** Adds printed text to the running block's output; returns false once its output is closed (cut, or after FINAL, or no block runs). */
  output(text: unknown): boolean {
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
  final(json: unknown): string | undefined {
    const block = this.#block;
    if (!block || block.final || typeof json !== "string") return undefined;
    if (json.length > MAX_FINAL_CHARS) return `FINAL's answer is ${json.length.toLocaleString("en-US")} characters of JSON, over the limit of ${MAX_FINAL_CHARS.toLocaleString("en-US")}; answer with a summary, a count or a slice.`;
    if (tooDeep(json)) return `FINAL needs a JSON value nested at most ${MAX_VALUE_DEPTH} levels deep; flatten it or answer with a string.`;
    block.final = { value: JSON.parse(json) as GuestValue };
    return undefined;
  }

  /** Starts an async host-function call from the guest of `live`; its result settles the guest's promise. */
  callStart(live: Live, name: unknown, args: unknown, id: unknown): void {
    void this.#callAsync(live, name, args, id);
  }

  /** Why a host call from the guest is refused right now, if it is. */
  #refuse(name: unknown, args: unknown): string | undefined {
    if (!this.#block) return "host functions can only be called while a block runs";
    if (this.#block.final) return "FINAL was already called; this block can no longer call host functions";
    if (typeof name !== "string" || !this.#host.functions.has(name)) return `${String(name)} is not available`;
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
    const fn = this.#host.functions.get(name as string)!;
    if (live.inFlight++ === 0) live.waitingSince = performance.now();
    let json: string;
    try {
      json = reply(await fn(...parseArguments(args)));
    } catch (error) {
      json = replyError(error);
    } finally {
      if (--live.inFlight === 0 && this.#block && this.#host.live() === live) this.#block.hostWaitMs += performance.now() - live.waitingSince;
    }
    this.#settle(live, id, json);
  }

  /** Resolves a guest promise now if a block is running, otherwise at the start of the next block. */
  #settle(live: Live, id: number, json: string): void {
    if (live !== this.#host.live() || live.isolate.isDisposed) return;
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
