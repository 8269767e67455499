import type { SessionResult } from "../core/session-result.ts";
import type { Tool } from "../tools/tool.ts";
import type { SubcallContext } from "../subcalls/subcall-functions.ts";
import { createBackgroundScheduler, type BackgroundScheduler } from "./background-scheduler.ts";
import type { BackgroundChildRequest } from "./background-task.ts";
import { createBackgroundTools } from "./background-tools.ts";

/** What a session lends its background tasks: what it lends its sub-calls (children run at depth + 1), its signal and its child-session runner. */
export interface SessionBackgroundContext extends Pick<SubcallContext, "tree" | "ledger" | "depth" | "emit" | "iteration" | "childSandboxMemoryMb"> {
  /** The session's own signal: every task ends with the session. */
  readonly signal: AbortSignal;
  /** Runs one child session in the session's call tree (the runner `rlm_query` uses, given the task's mode). */
  readonly runChild: (request: BackgroundChildRequest) => Promise<SessionResult>;
}

/** A session's background tools, usable once the session has attached its call tree. */
export interface SessionBackground {
  readonly tools: readonly Tool[];
  /** Starts the scheduler with the session's pieces (they exist only after its options were checked). */
  attach(context: SessionBackgroundContext): void;
  /** Resolves once every task has ended (promptly after the session's signal aborted). */
  settled(): Promise<void>;
}

/**
 * `spawn_sub_session` and `await_sub_sessions` for one session: the scheduler's
 * children pass the call tree's child-session gate (so they share the limit on
 * child sessions at once, and its memory, with `rlm_query`), count into the
 * session's ledger and budgets, and every change of a task is a `background_task` event.
 */
export function sessionBackground(): SessionBackground {
  let scheduler: BackgroundScheduler | undefined;
  const attached = (): BackgroundScheduler => {
    if (!scheduler) throw new Error("background tools used before the session attached its call tree");
    return scheduler;
  };
  // The tools reach the scheduler only when called, after attach().
  const forward: BackgroundScheduler = {
    spawn: (specs) => attached().spawn(specs),
    status: (ids) => attached().status(ids),
    wait: (ids, timeoutMs) => attached().wait(ids, timeoutMs),
    settled: () => (scheduler ? scheduler.settled() : Promise.resolve()),
  };
  return {
    tools: createBackgroundTools(forward),
    attach: (context) => {
      scheduler = schedulerFor(context);
    },
    settled: () => forward.settled(),
  };
}

function schedulerFor({ tree, ledger, depth, signal, emit, iteration, childSandboxMemoryMb, runChild }: SessionBackgroundContext): BackgroundScheduler {
  return createBackgroundScheduler({
    ledger,
    signal,
    concurrency: tree.limits.maxChildSessions,
    defaultTimeoutMs: tree.subcallTimeoutMs,
    onChange: (task) =>
      emit({
        type: "background_task",
        iteration: iteration(),
        taskId: task.id,
        state: task.state,
        objective: task.objective,
        dependsOn: task.dependsOn,
        ...(task.answer !== undefined ? { answer: task.answer } : {}),
        ...(task.error !== undefined ? { error: task.error } : {}),
        ...(task.sessionId !== undefined ? { childSessionId: task.sessionId } : {}),
        ...(task.childStatus !== undefined ? { childStatus: task.childStatus } : {}),
      }),
    startChild: async (request) => {
      if (depth + 1 > tree.tracker.maxDepth) throw new Error(`budget.maxDepth is ${tree.tracker.maxDepth}, so no child session may start at depth ${depth + 1}`);
      const gate = await tree.childGate(depth + 1).enter(childSandboxMemoryMb, request.signal);
      if (!gate.ok) throw new Error(gate.message);
      try {
        return await runChild(request);
      } finally {
        gate.release();
      }
    },
  });
}
