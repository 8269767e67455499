import type { BackgroundTaskSpec, SystemPromptMode } from "./background-task.ts";

/** A task ready to be scheduled: its id, its dependencies and its limits resolved. */
export interface PlannedTask {
  readonly id: string;
  readonly objective: string;
  readonly dependsOn: readonly string[];
  /** Epoch ms before which it does not start. */
  readonly notBefore?: number;
  readonly timeoutMs?: number;
  readonly systemPromptMode: SystemPromptMode;
}

/** What {@link planTasks} needs to know about the tasks spawned before. */
export interface PlanContext {
  /** Ids of every task spawned so far. */
  readonly known: ReadonlySet<string>;
  /** The id of the last task spawned, for `depends_on_previous`. */
  readonly previousId: string | undefined;
  /** Makes the id of a task that has none. */
  readonly nextId: () => string;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const MODES: readonly SystemPromptMode[] = ["minimal", "full"];

/**
 * Checks a batch of task specs and resolves their ids and dependencies, all or
 * nothing: an unknown id, a duplicate id, a cycle (tasks of the batch may depend on
 * each other by the ids they give), a bad time or timeout refuses the whole batch
 * with a message that says what was wrong.
 */
export function planTasks(specs: readonly BackgroundTaskSpec[], { known, previousId, nextId }: PlanContext): { readonly ok: true; readonly tasks: PlannedTask[] } | { readonly ok: false; readonly error: string } {
  if (specs.length === 0) return { ok: false, error: "no task given" };
  const batchIds = new Set<string>();
  for (const [index, spec] of specs.entries()) {
    if (spec.id === undefined) continue;
    if (typeof spec.id !== "string" || !ID.test(spec.id)) return { ok: false, error: `task ${index + 1}: id ${JSON.stringify(spec.id)} must be 1-64 letters, digits, _ or -` };
    if (known.has(spec.id) || batchIds.has(spec.id)) return { ok: false, error: `task ${index + 1}: the id '${spec.id}' is taken; choose another` };
    batchIds.add(spec.id);
  }
  const tasks: PlannedTask[] = [];
  let previous = previousId;
  for (const [index, spec] of specs.entries()) {
    const where = `task ${index + 1}`;
    if (typeof spec.objective !== "string" || spec.objective.trim() === "") return { ok: false, error: `${where}: the objective is empty; say what the task must do` };
    let id = spec.id;
    while (id === undefined || known.has(id) || (id !== spec.id && batchIds.has(id))) id = nextId();
    batchIds.add(id);
    const dependsOn = [...(spec.depends_on ?? [])];
    if (spec.depends_on_previous) {
      if (previous === undefined) return { ok: false, error: `${where}: depends_on_previous, but no task was spawned before it` };
      dependsOn.push(previous);
    }
    for (const dependency of dependsOn) {
      if (!known.has(dependency) && !batchIds.has(dependency) && !specs.some((other) => other.id === dependency)) {
        return { ok: false, error: `${where}: depends on '${dependency}', which is no task's id${known.size > 0 ? ` (known: ${[...known].join(", ")})` : ""}` };
      }
    }
    let notBefore: number | undefined;
    if (spec.not_before !== undefined) {
      notBefore = Date.parse(spec.not_before);
      if (Number.isNaN(notBefore)) return { ok: false, error: `${where}: not_before ${JSON.stringify(spec.not_before)} is not an ISO-8601 time` };
    }
    if (spec.timeout !== undefined && !(typeof spec.timeout === "number" && spec.timeout > 0)) return { ok: false, error: `${where}: timeout must be a positive number of seconds` };
    const mode = spec.system_prompt_mode ?? "minimal";
    if (!MODES.includes(mode)) return { ok: false, error: `${where}: system_prompt_mode must be "minimal" or "full"` };
    tasks.push({ id, objective: spec.objective, dependsOn: [...new Set(dependsOn)], ...(notBefore !== undefined ? { notBefore } : {}), ...(spec.timeout !== undefined ? { timeoutMs: Math.round(spec.timeout * 1000) } : {}), systemPromptMode: mode });
    previous = id;
  }
  const cycle = findCycle(tasks);
  if (cycle) return { ok: false, error: `the dependencies form a cycle (${cycle.join(" → ")}); no task of it could ever start` };
  return { ok: true, tasks };
}

/** A dependency cycle among `tasks` as a list of ids (first repeated at the end), or undefined. */
function findCycle(tasks: readonly PlannedTask[]): string[] | undefined {
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === "done" || !byId.has(id)) return undefined;
    if (state.get(id) === "open") return [...path.slice(path.indexOf(id)), id];
    state.set(id, "open");
    path.push(id);
    for (const dependency of byId.get(id)!.dependsOn) {
      const cycle = visit(dependency);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(id, "done");
    return undefined;
  };
  for (const task of tasks) {
    const cycle = visit(task.id);
    if (cycle) return cycle;
  }
  return undefined;
}
