export { createBackgroundScheduler, DEFAULT_MAX_BACKGROUND_TASKS, type BackgroundScheduler, type BackgroundSchedulerOptions, type BackgroundWait } from "./background-scheduler.ts";
export type { BackgroundChildRequest, BackgroundTaskSpec, BackgroundTaskState, BackgroundTaskStatus, SystemPromptMode } from "./background-task.ts";
export { BACKGROUND_TOOL_NAMES, createBackgroundTools, DEFAULT_AWAIT_SECONDS, SPAWN_SUB_SESSION_EXAMPLES, SPAWN_SUB_SESSION_PARAMETERS } from "./background-tools.ts";
export { planTasks, type PlanContext, type PlannedTask } from "./plan-tasks.ts";
export { sessionBackground, type SessionBackground, type SessionBackgroundContext } from "./session-background.ts";
