import type { JsonValue } from "../tools/json-schema.ts";
import type { SessionResult } from "../core/session-result.ts";
import { createConcurrencyLimiter } from "../subcalls/concurrency-limiter.ts";
import { DEFAULT_MAX_CHILD_SESSIONS } from "../subcalls/subcall-limits.ts";
import { DEFAULT_SUBCALL_TIMEOUT_MS } from "../subcalls/call-tree.ts";
import { subcallSignal } from "../subcalls/abort-race.ts";
import type { UsageLedger } from "../subcalls/usage-ledger.ts";
import type { BackgroundChildRequest, BackgroundTaskSpec, BackgroundTaskStatus } from "./background-task.ts";
import { planTasks, type PlannedTask } from "./plan-tasks.ts";

/** Default cap on the tasks one session may spawn. */
export const DEFAULT_MAX_BACKGROUND_TASKS = 32;

/** Options of {@link createBackgroundScheduler}. */
export interface BackgroundSchedulerOptions {
  /** Runs one child session (the session's own child-session runner, as `rlm_query` uses). */
  readonly startChild: (request: BackgroundChildRequest) => Promise<SessionResult>;
  /** The spawning session's ledger: each child counts into a child ledger of it. */
  readonly ledger: UsageLedger;
  /** Ends every task when it aborts (the spawning session ended). */
  readonly signal: AbortSignal;
  /** Child sessions running at once. Default 4 (`DEFAULT_MAX_CHILD_SESSIONS`). */
  readonly concurrency?: number;
  /** Time limit of a task without its own `timeout`. Default 180,000 ms. */
  readonly defaultTimeoutMs?: number;
  /** Tasks one scheduler accepts in all. Default 32. */
  readonly maxTasks?: number;
  /** Told every change of a task's state. */
  readonly onChange?: (status: BackgroundTaskStatus) => void;
  /** Wall clock for `not_before`, epoch ms. Default `Date.now`. */
  readonly now?: () => number;
}

/** What {@link BackgroundScheduler.wait} resolves to. */
export interface BackgroundWait {
  readonly tasks: readonly BackgroundTaskStatus[];
  /** Ids still waiting or running when the wait ended (its time limit ran out). */
  readonly pending: readonly string[];
}

/** Starts child sessions in the background and keeps their results by id. */
export interface BackgroundScheduler {
  /** Plans a batch (all or nothing) and starts what can start; returns the ids at once. */
  spawn(specs: readonly BackgroundTaskSpec[]): { readonly ok: true; readonly ids: readonly string[] } | { readonly ok: false; readonly error: string };
  /** The tasks' statuses (all tasks when `ids` is absent). Unknown ids are an error. */
  status(ids?: readonly string[]): { readonly ok: true; readonly tasks: readonly BackgroundTaskStatus[] } | { readonly ok: false; readonly error: string };
  /** Waits until the tasks (all when absent) have finished, or `timeoutMs` passed, or the session ended. */
  wait(ids: readonly string[] | undefined, timeoutMs: number): Promise<{ readonly ok: true; readonly result: BackgroundWait } | { readonly ok: false; readonly error: string }>;
  /** Resolves once every task has settled (after the session's signal aborted, promptly). */
  settled(): Promise<void>;
}

interface TaskEntry {
  readonly plan: PlannedTask;
  status: BackgroundTaskStatus;
  readonly finished: Promise<void>;
}

/**
 * The DAG scheduler behind `spawn_sub_session` and `await_sub_sessions`. A task
 * starts once its dependencies are done (their answers become its `context`, by
 * id), its `not_before` time has come and a slot is free (`concurrency` at once);
 * independent tasks run in parallel. A task whose dependency failed fails with the
 * reason, without starting. Everything runs through `startChild`, so budgets,
 * traces and limits are those of the spawning session's call tree.
 */
export function createBackgroundScheduler({ startChild, ledger, signal, concurrency = DEFAULT_MAX_CHILD_SESSIONS, defaultTimeoutMs = DEFAULT_SUBCALL_TIMEOUT_MS, maxTasks = DEFAULT_MAX_BACKGROUND_TASKS, onChange, now = Date.now }: BackgroundSchedulerOptions): BackgroundScheduler {
  const limiter = createConcurrencyLimiter(concurrency);
  const tasks = new Map<string, TaskEntry>();
  let previousId: string | undefined;
  let counter = 0;

  const update = (entry: TaskEntry, fields: Partial<BackgroundTaskStatus>): void => {
    entry.status = { ...entry.status, ...fields };
    onChange?.(entry.status);
  };

  async function run(entry: TaskEntry): Promise<void> {
    const { plan } = entry;
    const fail = (error: string): void => update(entry, { state: "failed", error });
    // Dependencies first: their answers are this task's context.
    const dependencies: Record<string, JsonValue> = {};
    for (const id of plan.dependsOn) {
      const dependency = tasks.get(id)!;
      await dependency.finished;
      if (dependency.status.state !== "done") return fail(`dependency '${id}' failed: ${dependency.status.error ?? "it did not answer"}`);
      dependencies[id] = dependency.status.answer ?? null;
    }
    if (signal.aborted) return fail("the session ended before the task started");
    if (plan.notBefore !== undefined && plan.notBefore > now()) {
      const waited = await delay(plan.notBefore - now(), signal);
      if (!waited) return fail("the session ended before the task's not_before time");
    }
    let result: SessionResult;
    try {
      result = await limiter.run(async () => {
        update(entry, { state: "running" });
        const timeoutMs = plan.timeoutMs ?? defaultTimeoutMs;
        // The child stops itself at its timeout (status "timeout"); the signal is the backstop.
        const scoped = subcallSignal(signal, timeoutMs + 1_000, false);
        try {
          return await startChild({ taskId: plan.id, systemPromptMode: plan.systemPromptMode, question: plan.objective, context: plan.dependsOn.length > 0 ? dependencies : undefined, signal: scoped.signal, timeoutMs, ledger: ledger.child() });
        } finally {
          scoped.dispose();
        }
      }, signal);
    } catch (error) {
      return fail(signal.aborted ? "the session ended before the task finished" : `the child session could not run: ${(error as Error)?.message ?? error}`);
    }
    const ran = { sessionId: result.sessionId, childStatus: result.status };
    if (result.status === "final") return update(entry, { state: "done", answer: result.answer ?? null, ...ran });
    const why = result.status === "timeout" ? `it did not finish within its timeout of ${((plan.timeoutMs ?? defaultTimeoutMs) / 1000).toLocaleString("en-US")} s` : `the child session ended with status '${result.status}'${result.error ? `: ${result.error}` : ""}`;
    update(entry, { state: "failed", error: why, ...ran });
  }

  const unknown = (ids: readonly string[]): string | undefined => {
    const missing = ids.filter((id) => !tasks.has(id));
    return missing.length === 0 ? undefined : `no task has the id${missing.length > 1 ? "s" : ""} ${missing.map((id) => `'${id}'`).join(", ")}${tasks.size > 0 ? ` (known: ${[...tasks.keys()].join(", ")})` : " (none was spawned)"}`;
  };

  return {
    spawn(specs) {
      if (signal.aborted) return { ok: false, error: "the session has ended" };
      if (tasks.size + specs.length > maxTasks) return { ok: false, error: `at most ${maxTasks} background tasks per session; ${tasks.size} were spawned already` };
      const planned = planTasks(specs, { known: new Set(tasks.keys()), previousId, nextId: () => `task_${++counter}` });
      if (!planned.ok) return planned;
      for (const plan of planned.tasks) {
        let settle!: () => void;
        const entry: TaskEntry = { plan, status: { id: plan.id, objective: plan.objective, state: "waiting", dependsOn: plan.dependsOn }, finished: new Promise<void>((resolve) => (settle = resolve)) };
        tasks.set(plan.id, entry);
        onChange?.(entry.status);
        // Tasks of a batch may depend on later ones: each starts only after the whole batch is registered.
        queueMicrotask(() => void run(entry).catch((error: unknown) => update(entry, { state: "failed", error: String((error as Error)?.message ?? error) })).finally(settle));
        previousId = plan.id;
      }
      return { ok: true, ids: planned.tasks.map((task) => task.id) };
    },

    status(ids) {
      const error = ids ? unknown(ids) : undefined;
      if (error) return { ok: false, error };
      return { ok: true, tasks: (ids ?? [...tasks.keys()]).map((id) => tasks.get(id)!.status) };
    },

    async wait(ids, timeoutMs) {
      const error = ids ? unknown(ids) : undefined;
      if (error) return { ok: false, error };
      const wanted = ids ?? [...tasks.keys()];
      await Promise.race([Promise.all(wanted.map((id) => tasks.get(id)!.finished)), delay(timeoutMs, signal)]);
      const statuses = wanted.map((id) => tasks.get(id)!.status);
      return { ok: true, result: { tasks: statuses, pending: statuses.filter((task) => task.state === "waiting" || task.state === "running").map((task) => task.id) } };
    },

    async settled() {
      await Promise.all([...tasks.values()].map((entry) => entry.finished));
    },
  };
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function delay(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, Math.max(0, ms));
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
