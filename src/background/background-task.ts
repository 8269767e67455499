import type { JsonValue } from "../tools/json-schema.ts";
import type { SessionStatus } from "../core/session-result.ts";
import type { ChildSessionRequest } from "../subcalls/subcall-functions.ts";

/** How much of the parent session a background child gets: `minimal` the objective only, `full` the parent's tools and repository too. */
export type SystemPromptMode = "minimal" | "full";

/** One background task as `spawn_sub_session` takes it (snake_case: the tool's arguments). */
export interface BackgroundTaskSpec {
  /** What the child session must do: a complete, standalone instruction. */
  readonly objective: string;
  /** A name for the task that later tasks can depend on; default `task_<n>`. */
  readonly id?: string;
  /** Ids of tasks that must finish first; their answers are the child's `context`. */
  readonly depends_on?: readonly string[];
  /** Depends on the task spawned just before this one. */
  readonly depends_on_previous?: boolean;
  /** ISO-8601 time before which the task does not start. */
  readonly not_before?: string;
  /** Seconds the child session may run. */
  readonly timeout?: number;
  readonly system_prompt_mode?: SystemPromptMode;
}

/** Where a task is: waiting (for dependencies, `not_before` or a free slot), running, done (answered) or failed. */
export type BackgroundTaskState = "waiting" | "running" | "done" | "failed";

/** What the model (and the trace) is told about a task. */
export interface BackgroundTaskStatus {
  readonly id: string;
  readonly objective: string;
  readonly state: BackgroundTaskState;
  readonly dependsOn: readonly string[];
  /** The child session's answer (state `done`). */
  readonly answer?: JsonValue;
  /** Why it failed (state `failed`). */
  readonly error?: string;
  /** The child session's id and final status, once it ran. */
  readonly sessionId?: string;
  readonly childStatus?: SessionStatus;
}

/** What the scheduler asks its `startChild` callback to run: a sub-call's child request plus the task's own fields. */
export interface BackgroundChildRequest extends ChildSessionRequest {
  readonly taskId: string;
  readonly systemPromptMode: SystemPromptMode;
}
