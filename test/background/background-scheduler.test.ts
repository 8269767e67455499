import { describe, expect, test } from "vitest";
import { runSession, ScriptedModel, UsageLedger, type ScriptedReply, type SessionResult } from "../../src/index.ts";
import { createBackgroundScheduler, type BackgroundChildRequest, type BackgroundScheduler, type BackgroundTaskSpec } from "../../src/background/index.ts";
import { js } from "../support/scripted-replies.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A scheduler whose children are real sessions (isolate sandbox, scripted models).
 * Each objective is looked up in `script`: the replies of that child's model.
 */
function harness(script: Record<string, readonly ScriptedReply[]>, options: { concurrency?: number; controller?: AbortController } = {}) {
  const controller = options.controller ?? new AbortController();
  const runs: { taskId: string; request: BackgroundChildRequest; startedAt: number; endedAt?: number; result?: SessionResult }[] = [];
  const scheduler = createBackgroundScheduler({
    ledger: new UsageLedger(),
    signal: controller.signal,
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    startChild: async (request) => {
      const run: (typeof runs)[number] = { taskId: request.taskId, request, startedAt: performance.now() };
      runs.push(run);
      const replies = script[request.question];
      if (!replies) throw new Error(`no script for ${request.question}`);
      const model = new ScriptedModel(replies);
      const result = await runSession({ question: request.question, ...(request.context !== undefined ? { context: request.context } : {}), model, subcalls: false, signal: request.signal, timeoutMs: request.timeoutMs, sandbox: { backend: "isolate" } });
      run.endedAt = performance.now();
      run.result = result;
      return result;
    },
  });
  const runOf = (taskId: string) => runs.find((run) => run.taskId === taskId);
  return { scheduler, runs, runOf, controller };
}

/** Spawns and expects success. */
function spawn(scheduler: BackgroundScheduler, specs: BackgroundTaskSpec[]): readonly string[] {
  const spawned = scheduler.spawn(specs);
  if (!spawned.ok) throw new Error(spawned.error);
  return spawned.ids;
}

/** A reply that takes `ms` before answering `value`. */
const slowFinal = (ms: number, value: string): ScriptedReply => async () => {
  await sleep(ms);
  return js(`FINAL(${JSON.stringify(value)})`);
};

describe("background scheduler: real child sessions", () => {
  test("a dependant starts after its dependency ended and gets its answer as context", async () => {
    const { scheduler, runOf } = harness({
      "write the cheatsheet": [slowFinal(50, "cheatsheet v1")],
      "review the cheatsheet": [js('FINAL(context.sheet + " + 3 examples")')],
    });
    const ids = spawn(scheduler, [{ objective: "write the cheatsheet", id: "sheet" }, { objective: "review the cheatsheet", depends_on_previous: true }]);
    expect(ids).toEqual(["sheet", "task_1"]);
    expect(scheduler.status().ok && scheduler.status()).toMatchObject({ tasks: [{ id: "sheet" }, { id: "task_1", state: "waiting", dependsOn: ["sheet"] }] });
    const waited = await scheduler.wait(undefined, 20_000);
    expect(waited).toMatchObject({ ok: true, result: { pending: [], tasks: [{ id: "sheet", state: "done", answer: "cheatsheet v1" }, { id: "task_1", state: "done", answer: "cheatsheet v1 + 3 examples", childStatus: "final" }] } });
    expect(runOf("task_1")!.startedAt).toBeGreaterThanOrEqual(runOf("sheet")!.endedAt!);
    expect(runOf("task_1")!.request.context).toEqual({ sheet: "cheatsheet v1" });
    expect(runOf("sheet")!.request.context).toBeUndefined();
  });

  test.each([
    ["two slots: independent tasks overlap", 2, true],
    ["one slot: they run one after the other", 1, false],
  ])("%s", async (_label, concurrency, overlap) => {
    const { scheduler, runOf } = harness({ "task a": [slowFinal(300, "a")], "task b": [slowFinal(300, "b")] }, { concurrency });
    spawn(scheduler, [{ objective: "task a", id: "a" }, { objective: "task b", id: "b" }]);
    await scheduler.wait(undefined, 20_000);
    const [a, b] = [runOf("a")!, runOf("b")!];
    // Measured: the time both children were running at once.
    const shared = Math.min(a.endedAt!, b.endedAt!) - Math.max(a.startedAt, b.startedAt);
    if (overlap) expect(shared).toBeGreaterThan(100);
    else expect(shared).toBeLessThanOrEqual(0);
  });

  test("a failed dependency fails its dependants (transitively) with the reason, and they never start", async () => {
    const { scheduler, runs } = harness({
      fetch: [
        () => {
          throw new Error("server down");
        },
      ],
      independent: [js('FINAL("fine")')],
    });
    spawn(scheduler, [{ objective: "fetch", id: "fetch" }, { objective: "summarize", id: "sum", depends_on: ["fetch"] }, { objective: "publish", id: "pub", depends_on: ["sum"] }, { objective: "independent", id: "ind" }]);
    const waited = await scheduler.wait(undefined, 20_000);
    expect(waited).toMatchObject({
      ok: true,
      result: {
        tasks: [
          { id: "fetch", state: "failed", error: expect.stringMatching(/^the child session ended with status 'error': model call failed: server down/) },
          { id: "sum", state: "failed", error: expect.stringMatching(/^dependency 'fetch' failed: the child session ended/) },
          { id: "pub", state: "failed", error: expect.stringMatching(/^dependency 'sum' failed: dependency 'fetch' failed/) },
          { id: "ind", state: "done", answer: "fine" },
        ],
      },
    });
    expect(runs.map((run) => run.taskId).sort()).toEqual(["fetch", "ind"]);
  });

  test("a task that outlives its timeout fails saying so", async () => {
    const { scheduler } = harness({ slow: [slowFinal(5_000, "late")] });
    spawn(scheduler, [{ objective: "slow", id: "slow", timeout: 0.3 }]);
    const started = performance.now();
    const waited = await scheduler.wait(["slow"], 20_000);
    expect(performance.now() - started).toBeLessThan(4_000);
    expect(waited).toMatchObject({ ok: true, result: { tasks: [{ id: "slow", state: "failed", childStatus: "timeout", error: "it did not finish within its timeout of 0.3 s" }] } });
  });

  test("not_before holds a task back until its time", async () => {
    const { scheduler, runOf } = harness({ later: [js('FINAL("now")')] });
    const notBefore = Date.now() + 400;
    spawn(scheduler, [{ objective: "later", id: "later", not_before: new Date(notBefore).toISOString() }]);
    await sleep(50);
    expect(runOf("later")).toBeUndefined();
    await scheduler.wait(["later"], 20_000);
    expect(runOf("later")!.startedAt + performance.timeOrigin).toBeGreaterThanOrEqual(notBefore - 5);
  });

  test("await with a short timeout returns the tasks still running as pending", async () => {
    const { scheduler } = harness({ slow: [slowFinal(600, "done")] });
    spawn(scheduler, [{ objective: "slow", id: "s" }]);
    expect(await scheduler.wait(["s"], 50)).toMatchObject({ ok: true, result: { pending: ["s"], tasks: [{ id: "s", state: "running" }] } });
    expect(await scheduler.wait(["s"], 20_000)).toMatchObject({ ok: true, result: { pending: [], tasks: [{ state: "done", answer: "done" }] } });
  });

  test("when the session ends, running and waiting tasks fail and settle at once", async () => {
    const controller = new AbortController();
    const { scheduler } = harness({ slow: [slowFinal(5_000, "late")], after: [js('FINAL("never")')] }, { controller });
    spawn(scheduler, [{ objective: "slow", id: "slow" }, { objective: "after", depends_on: ["slow"] }]);
    await sleep(100);
    controller.abort();
    const started = performance.now();
    await scheduler.settled();
    expect(performance.now() - started).toBeLessThan(3_000);
    const status = scheduler.status();
    expect(status.ok && status.tasks.map((task) => task.state)).toEqual(["failed", "failed"]);
    expect(scheduler.spawn([{ objective: "after" }])).toEqual({ ok: false, error: "the session has ended" });
  });
});

describe("background scheduler: refused batches (nothing starts)", () => {
  test.each([
    ["a cycle inside a batch", [{ objective: "x", id: "x", depends_on: ["y"] }, { objective: "y", id: "y", depends_on: ["x"] }], "the dependencies form a cycle (x → y → x); no task of it could ever start"],
    ["a task that depends on itself", [{ objective: "x", id: "x", depends_on: ["x"] }], "the dependencies form a cycle (x → x); no task of it could ever start"],
    ["an unknown id", [{ objective: "x", depends_on: ["nope"] }], "task 1: depends on 'nope', which is no task's id"],
    ["a duplicate id", [{ objective: "x", id: "same" }, { objective: "y", id: "same" }], "task 2: the id 'same' is taken; choose another"],
    ["depends_on_previous with nothing before", [{ objective: "x", depends_on_previous: true }], "task 1: depends_on_previous, but no task was spawned before it"],
    ["a bad not_before", [{ objective: "x", not_before: "tomorrow-ish" }], 'task 1: not_before "tomorrow-ish" is not an ISO-8601 time'],
    ["an empty objective", [{ objective: " " }], "task 1: the objective is empty; say what the task must do"],
  ] as const)("%s", async (_label, specs, error) => {
    const { scheduler, runs } = harness({});
    expect(scheduler.spawn(specs as unknown as BackgroundTaskSpec[])).toEqual({ ok: false, error });
    expect(scheduler.status()).toEqual({ ok: true, tasks: [] });
    await sleep(10);
    expect(runs).toEqual([]);
  });

  test("unknown ids in status and await are errors naming the known ones", async () => {
    const { scheduler } = harness({ a: [js('FINAL("a")')] });
    spawn(scheduler, [{ objective: "a", id: "a" }]);
    expect(scheduler.status(["b"])).toEqual({ ok: false, error: "no task has the id 'b' (known: a)" });
    expect(await scheduler.wait(["a", "c"], 10)).toEqual({ ok: false, error: "no task has the id 'c' (known: a)" });
    await scheduler.wait(undefined, 20_000);
  });
});
