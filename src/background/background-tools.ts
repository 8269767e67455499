import type { TranslationExample } from "../tools/nl-options.ts";
import type { JsonValue, ToolParameters } from "../tools/json-schema.ts";
import type { Tool } from "../tools/tool.ts";
import { defineTool } from "../tools/define-tool.ts";
import type { BackgroundScheduler } from "./background-scheduler.ts";
import type { BackgroundTaskSpec, BackgroundTaskStatus } from "./background-task.ts";

/** The names of the background-session tools. */
export const BACKGROUND_TOOL_NAMES = ["spawn_sub_session", "await_sub_sessions"] as const;
/** How long `await_sub_sessions` waits without a `timeout`. */
export const DEFAULT_AWAIT_SECONDS = 300;

/** `spawn_sub_session`'s real schema. */
export const SPAWN_SUB_SESSION_PARAMETERS: ToolParameters = {
  type: "object",
  properties: {
    objective: { type: "string", minLength: 1, description: "A complete, standalone instruction: the child session sees nothing of this conversation." },
    id: { type: "string", pattern: "^[A-Za-z0-9_-]{1,64}$", description: "A name for this task (default task_<n>)." },
    depends_on: { type: "array", items: { type: "string" }, description: "Ids of tasks that must finish first; their answers are the child's `context`, by id." },
    depends_on_previous: { type: "boolean", description: "Wait for the task spawned just before this one." },
    not_before: { type: "string", description: "ISO-8601 time before which the task does not start." },
    timeout: { type: "number", exclusiveMinimum: 0, description: "Seconds the task may run (default 180)." },
    system_prompt_mode: { enum: ["minimal", "full"], description: "minimal: the objective only (default); full: this session's tools and repository too." },
  },
  required: ["objective"],
  additionalProperties: false,
};

/** The translator's few-shot examples for `spawn_sub_session` (after the reference design's). */
export const SPAWN_SUB_SESSION_EXAMPLES: readonly TranslationExample[] = [
  { description: "summarize what the retry logic does", output: { objective: "Find the retry logic and summarize in at most 200 words what it retries, how often and how long it waits." } },
  {
    description: "write a cheatsheet of the asyncio patterns used here, then after that's done, review the cheatsheet and add three practical examples",
    output: [
      { objective: "Write a concise cheatsheet of the asyncio patterns this code uses, one line per pattern." },
      { objective: "Your context holds a cheatsheet by task id. Review it and answer with the cheatsheet plus three practical, runnable examples.", depends_on_previous: true },
    ],
  },
  { description: "check whether the config file sets a timeout, give it 60s, using the repository", output: { objective: "Look in the repository's configuration files for a timeout setting and answer with its name, file and value, or 'none'.", timeout: 60, system_prompt_mode: "full" } },
  { description: "do the thing from before", output: { error: "missing_info", clarification_needed: "Which task should the background session do? Describe it fully: it cannot see this conversation." } },
];

/**
 * `spawn_sub_session` and `await_sub_sessions` over one session's scheduler.
 * `spawn_sub_session` returns the new task's id at once (the child runs in the
 * background); `await_sub_sessions` returns the tasks' states and answers.
 */
export function createBackgroundTools(scheduler: BackgroundScheduler): [Tool, Tool] {
  const spawn = defineTool({
    name: "spawn_sub_session",
    description: "Starts a child session in the background on a standalone objective and returns its id at once; get its answer with await_sub_sessions.",
    parameters: SPAWN_SUB_SESSION_PARAMETERS,
    example: 'const started = spawn_sub_session("Find where retries are decided and summarize the policy.")',
    nl: {
      examples: SPAWN_SUB_SESSION_EXAMPLES,
      instructions: [
        '"objective" is always required: a complete instruction for a worker that cannot see this conversation.',
        '"depends_on_previous" is true when the description says "after the previous task" or "once that is done"; leave it out otherwise.',
        'Set "system_prompt_mode" to "full" only when the task needs the repository or this session\'s tools.',
        '"timeout" is in seconds; leave it out unless the description gives one.',
      ],
      describe: "The background task in words: what to do and produce, and any order ('after the previous task'), start time or time limit. The worker cannot see this conversation.",
    },
    handler: (args): JsonValue => {
      const spawned = scheduler.spawn([args as BackgroundTaskSpec]);
      if (!spawned.ok) return { error: `spawn_sub_session: ${spawned.error}` };
      return { started: [...spawned.ids], note: `running in the background; await_sub_sessions(${JSON.stringify(spawned.ids)}) returns the answer` };
    },
  });
  const wait = defineTool({
    name: "await_sub_sessions",
    description: "Waits for background tasks (all when no ids are given) and returns each one's state and answer or error; tasks still running after `timeout` seconds are listed as pending.",
    parameters: {
      type: "object",
      properties: {
        ids: { type: "array", items: { type: "string" }, description: "Task ids; default: every task." },
        timeout: { type: "number", minimum: 0, description: `Seconds to wait at most (default ${DEFAULT_AWAIT_SECONDS}); 0 only looks.` },
      },
    },
    example: 'const results = await_sub_sessions(["task_1"])',
    handler: async ({ ids, timeout }): Promise<JsonValue> => {
      const waited = await scheduler.wait(ids as string[] | undefined, ((timeout as number | undefined) ?? DEFAULT_AWAIT_SECONDS) * 1000);
      if (!waited.ok) return { error: `await_sub_sessions: ${waited.error}` };
      return { tasks: waited.result.tasks.map(describeTask), pending: [...waited.result.pending] };
    },
  });
  return [spawn, wait];
}

/** A task as the model sees it: state, then answer or error. */
function describeTask(task: BackgroundTaskStatus): Record<string, JsonValue> {
  return {
    id: task.id,
    state: task.state,
    ...(task.dependsOn.length > 0 ? { depends_on: [...task.dependsOn] } : {}),
    ...(task.state === "done" ? { answer: task.answer ?? null } : {}),
    ...(task.error !== undefined ? { error: task.error } : {}),
  };
}
