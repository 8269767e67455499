import vm from "node:vm";

/** Thrown by {@link TimeGuard.run} when the guard's time ran out (the work was stopped). */
export class GuardTimeout extends Error {
  override readonly name = "GuardTimeout";
  constructor() {
    super("the time guard's budget ran out");
  }
}

/** Why a search on the calling thread stopped early: its deadline passed, or it was cancelled. */
export class ScanStopped extends Error {
  override readonly name = "ScanStopped";
  readonly reason: "timeout" | "cancelled";
  constructor(reason: "timeout" | "cancelled") {
    super(reason);
    this.reason = reason;
  }
}

// Node stops a `vm` call that outlives its `timeout` by terminating the thread's JavaScript, which
// V8 also checks for while a regular expression backtracks; host functions the call makes run under it.
const TIMEOUT_CODE = "ERR_SCRIPT_EXECUTION_TIMEOUT";

// Where the script finds the work it runs: a slot of the global object of the thread's main context, which the script
// runs in, filled only while a run lasts (a context of its own cost about 1 ms to make, the first run's whole cost
// otherwise). That global is not this module's when the module was evaluated in another context (a test runner's).
const WORK = Symbol.for("rlmkit.timeGuard.work");
type Slot = { [WORK]?: () => unknown };
let runner: { readonly script: vm.Script; readonly slot: Slot } | undefined;

/**
 * A time budget for synchronous work on the calling thread, enforced from
 * another thread: each {@link run} is stopped when the budget left runs out,
 * even inside a regular expression that backtracks catastrophically (where no
 * JavaScript check between steps could run). Each run costs about 0.1 ms (a
 * watchdog thread), so callers batch their work.
 *
 * Stopped work is cut short anywhere: give it only work whose partial results
 * are thrown away, and no resources to release (no open files).
 */
export class TimeGuard {
  #leftMs: number;

  /** @param budgetMs - the time all runs together may take */
  constructor(budgetMs: number) {
    this.#leftMs = budgetMs;
  }

  /** Runs `work` and returns its result, or throws {@link GuardTimeout} when the budget ran out. */
  run<T>(work: () => T): T {
    if (this.#leftMs <= 0) throw new GuardTimeout();
    const started = performance.now();
    // Runs on one thread never overlap.
    runner ??= { script: new vm.Script(`globalThis[Symbol.for(${JSON.stringify(WORK.description)})]()`), slot: vm.runInThisContext("globalThis") as Slot };
    const { script, slot } = runner;
    slot[WORK] = work;
    try {
      return script.runInThisContext({ timeout: Math.max(1, Math.ceil(this.#leftMs)) }) as T;
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== TIMEOUT_CODE) throw error;
      // Spent, whatever this thread's clock says (the watchdog's may run a little ahead of it).
      this.#leftMs = 0;
      throw new GuardTimeout();
    } finally {
      delete slot[WORK];
      this.#leftMs -= performance.now() - started;
    }
  }
}
