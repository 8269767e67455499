/** Default per-block time limit. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Default memory limit for the guest's own work, on top of what persistent globals take. */
export const DEFAULT_MEMORY_LIMIT_MB = 128;
/** Default cap on captured output per block. */
export const DEFAULT_MAX_OUTPUT_CHARS = 20_000;
/** Default cap on the total time one block may wait on exposed async host functions. */
export const DEFAULT_MAX_HOST_WAIT_MS = 600_000;
/**
 * Deepest nesting of arrays and objects a value may have to leave the guest (a FINAL
 * answer, the arguments of a host function). Deeper values are refused in the block:
 * host code that serializes or walks them (traces, events) would overflow its stack.
 */
export const MAX_VALUE_DEPTH = 256;
/**
 * Longest FINAL answer, in characters of JSON, a sandbox hands back. A longer one is
 * refused in the block (the guest's FINAL throws), so no block can hand the host a
 * value of hundreds of megabytes.
 */
export const MAX_FINAL_CHARS = 10_000_000;

/** Limits for one sandbox. Every limit is enforced by the host. */
export interface SandboxOptions {
  /**
   * Wall-clock limit for one block, excluding time spent waiting on exposed async host
   * functions. The isolate's CPU time per block is held to the same limit, so a busy
   * loop is stopped even while a host call is pending. Default 30 s.
   */
  readonly timeoutMs?: number;
  /** V8 heap limit in MB for the guest's own work; persistent globals (such as a large context) are added on top. Default 128. */
  readonly memoryLimitMb?: number;
  /** Output kept per block; the rest is dropped with a notice. Default 20,000 characters. */
  readonly maxOutputChars?: number;
  /** Total time one block may spend waiting on exposed async host functions before it is stopped as a timeout. Default 10 minutes. */
  readonly maxHostWaitMs?: number;
}

/** Every limit of {@link SandboxOptions}, defaults filled in. */
export type SandboxLimits = Required<SandboxOptions>;

/** Fills in the defaults and checks every limit; throws a RangeError naming a limit that is not a positive finite number. */
export function sandboxLimits({
  timeoutMs = DEFAULT_TIMEOUT_MS,
  memoryLimitMb = DEFAULT_MEMORY_LIMIT_MB,
  maxOutputChars = DEFAULT_MAX_OUTPUT_CHARS,
  maxHostWaitMs = DEFAULT_MAX_HOST_WAIT_MS,
}: SandboxOptions = {}): SandboxLimits {
  const limits = { timeoutMs, memoryLimitMb, maxOutputChars, maxHostWaitMs };
  for (const [name, value] of Object.entries(limits)) {
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) throw new RangeError(`sandbox option ${name} must be a positive number, got ${value}.`);
  }
  return limits;
}

/** A JSON value as it crosses the boundary. */
export type GuestValue = string | number | boolean | null | GuestValue[] | { [key: string]: GuestValue };

/** Why a block failed; see {@link ExecutionError.kind}. */
export type ExecutionErrorKind = "syntax" | "runtime" | "timeout" | "memory" | "crash";

/** A failure located in the caller's own code. Never carries host paths or host stack frames. */
export interface ExecutionError {
  /**
   * `syntax`: the block did not parse; `runtime`: it threw; `timeout` / `memory`: the host
   * stopped it and reset the sandbox; `crash`: the process running it ended abruptly (a
   * fatal V8 error, or another block in the same worker process was stopped), or the
   * sandbox had already lost its state before the block, which then did not run.
   */
  readonly kind: ExecutionErrorKind;
  /** The guest error's name, e.g. `TypeError`. */
  readonly name: string;
  /** What went wrong, with host paths removed. */
  readonly message: string;
  /** 1-based line in the block as given to `execute`, when known. */
  readonly line?: number;
  /** 1-based column, when known. */
  readonly column?: number;
}

/** What running one block did. */
export interface ExecutionResult {
  /** Captured print/console output (capped). */
  readonly output: string;
  /** True when output went over the cap and was cut. */
  readonly outputTruncated: boolean;
  /** Present when the block executed FINAL or FINAL_VAR. */
  readonly final?: { readonly value: GuestValue };
  /** Present when the block failed. A block can both call FINAL and fail afterwards only if the guest caught FINAL's signal. */
  readonly error?: ExecutionError;
  /** True when the sandbox was replaced during or before this block (timeout, memory, crash): every variable was lost. */
  readonly reset: boolean;
  /** Wall time of the block. */
  readonly durationMs: number;
  /** Part of `durationMs` spent waiting on exposed async host functions (not counted against the timeout). */
  readonly hostWaitMs: number;
}

/**
 * A host function made callable from guest code; arguments and result are copied as
 * JSON. Host calls are async only: in the guest the function returns a promise, so a
 * backend can run the guest in another process.
 */
export type HostFunction = (...args: GuestValue[]) => unknown;

/**
 * The seam between the orchestrator and the place model code runs. A sandbox keeps
 * state across blocks like a REPL and knows nothing of sessions, models or tools.
 * Calls must not overlap: await each method before calling the next.
 *
 * @example
 * await sandbox.setPersistentGlobal("context", text);
 * await sandbox.exposeFunction("llm_query", (prompt) => ask(prompt));
 * const result = await sandbox.execute('const n = context.length;\nFINAL(n)');
 * if (result.final) return result.final.value;
 * if (result.error) report(result.error.line, result.error.message);
 */
export interface Sandbox {
  /** Sets a global that survives resets (re-created in every fresh isolate), e.g. `context`. */
  setPersistentGlobal(name: string, value: GuestValue): Promise<void>;
  /**
   * Sets a global in the current isolate only (lost on reset), e.g. an injected tool result.
   * No guest setter runs; rejects if guest code made the name read-only.
   */
  setGlobal(name: string, value: GuestValue): Promise<void>;
  /** Makes `name` a guest function that throws `message` when called. Survives resets. */
  defineStub(name: string, message: string): Promise<void>;
  /** Makes `name` a guest function that calls `fn` in the host and returns a promise of its result; the wait is not counted against the block timeout. Survives resets. */
  exposeFunction(name: string, fn: HostFunction): Promise<void>;
  /** Runs one block. Never throws for guest faults: they are reported in the result. Throws if another block is still running. */
  execute(code: string): Promise<ExecutionResult>;
  /** Replaces the isolate with a fresh one; persistent globals, stubs and functions are re-applied. */
  reset(): Promise<void>;
  /** Releases the sandbox's isolate (and its place in a worker process). The sandbox cannot be used afterwards. Never rejects. */
  dispose(): Promise<void>;
}

/** Where model code runs: `isolate` in this process, `process` in a pool of worker processes. */
export type SandboxBackend = "isolate" | "process";

/**
 * The backend a session uses when neither `sandbox.backend` nor `sandboxFactory` says:
 * `process`, because no block can then take the host down, and it costs about a
 * millisecond per block (DOCS/PERFORMANCE.md).
 */
export const DEFAULT_SANDBOX_BACKEND: SandboxBackend = "process";

/** The backends, for validating a backend named in a config file or on the command line. */
export const SANDBOX_BACKENDS: readonly SandboxBackend[] = ["process", "isolate"];

/**
 * Makes sandboxes. The session asks its factory for one sandbox per session (child
 * sessions of `rlm_query` included), so one factory, and one worker pool behind it,
 * serves every session of a process.
 *
 * @example
 * const sandbox = await factory.create({ timeoutMs: 5_000 });
 * try { await sandbox.execute("FINAL(1)") } finally { await sandbox.dispose() }
 */
export interface SandboxFactory {
  /** The backend this factory's sandboxes use. */
  readonly backend: SandboxBackend;
  /** Opens a sandbox with these limits. Rejects for invalid limits. */
  create(options?: SandboxOptions): Promise<Sandbox>;
}
