import { NAV_TOOL_NAMES } from "../nav/nav-tool-names.ts";
import type { NavTools } from "../nav/index.ts";
import { runSession } from "../session/run-session.ts";
import type { SessionEvent } from "../core/events.ts";
import type { SessionResult, SessionStatus } from "../core/session-result.ts";
import type { JsonValue } from "../tools/json-schema.ts";
import type { Tool } from "../tools/tool.ts";
import { ReplayModel } from "./replay-model.ts";
import { clip } from "../util/clip.ts";
import { capAnswer } from "../session/cap-event.ts";

/** Options of {@link replaySession}. */
export interface ReplaySessionOptions {
  /** The recorded trace's events (see `readTrace`). */
  readonly events: readonly SessionEvent[];
  /** The repository the recorded session navigated (a path or open `NavTools`), when it used the nav tools. */
  readonly repo?: string | NavTools;
  /** Other tools the recorded session used, rebuilt by the caller. */
  readonly tools?: readonly Tool[];
  /** The `context` the recorded session had; traces keep only its description. */
  readonly context?: JsonValue;
  /** Receives the replayed session's events. */
  readonly onEvent?: (event: SessionEvent) => void;
  /** Writes the replayed session's trace here. */
  readonly tracePath?: string;
  readonly signal?: AbortSignal;
}

/** What the recording said, next to what the replay did. */
export interface ReplayOutcome {
  /** The replayed session's result. */
  readonly result: SessionResult;
  /** The recorded session's end, when the trace has one. */
  readonly recorded: { readonly status: SessionStatus; readonly answer?: JsonValue; readonly iterations: number } | undefined;
  /** True when the replay ended with the same status and the same answer (compared as JSON). */
  readonly reproduced: boolean;
  /** Why it did not reproduce, one line each; empty when it did. */
  readonly differences: readonly string[];
  /** Recorded model replies, and how many the replay used. */
  readonly replies: { readonly recorded: number; readonly used: number };
}

/**
 * Re-runs a recorded root session with its model replies taken from the trace
 * (no network): same question, same limits, real sandbox, the tools the caller
 * rebuilt. When the recording used sub-calls, the sub-model's replies are
 * replayed too (see `ReplayModel.subModelFromEvents`). Reports whether the run reproduced the recorded status and answer.
 * Throws when the trace has no root session or a recorded tool is missing.
 */
export async function replaySession({ events, repo, tools = [], context, onEvent, tracePath, signal }: ReplaySessionOptions): Promise<ReplayOutcome> {
  const start = events.find((event): event is Extract<SessionEvent, { type: "session_start" }> => event.type === "session_start" && (event.depth ?? 0) === 0);
  if (!start) throw new Error("the trace has no root session_start event; is it a trace written by rlmkit?");
  const end = events.find((event): event is Extract<SessionEvent, { type: "session_end" }> => event.type === "session_end" && event.sessionId === start.sessionId);
  const available = new Set(tools.map((tool) => tool.name));
  if (repo !== undefined) for (const name of NAV_TOOL_NAMES) available.add(name);
  const missing = start.tools.filter((name) => !available.has(name));
  if (missing.length > 0) throw new Error(`the recorded session used tools that are not available for the replay: ${missing.join(", ")}`);
  const used = new Set(start.tools);
  const model = ReplayModel.fromEvents(events, start.sessionId);
  const usedSubcalls = events.some((event) => event.type === "subcall_start" && event.sessionId === start.sessionId);
  const subModel = usedSubcalls ? ReplayModel.subModelFromEvents(events) : undefined;
  const result = await runSession({
    question: start.question,
    model,
    tools: tools.filter((tool) => used.has(tool.name)),
    ...(repo !== undefined ? { repo } : {}),
    maxIterations: start.maxIterations,
    ...(subModel ? { subModel } : {}),
    ...(context !== undefined ? { context } : {}),
    ...(onEvent ? { onEvent } : {}),
    ...(tracePath ? { tracePath } : {}),
    ...(signal ? { signal } : {}),
  });

  const differences: string[] = [];
  if (!end) {
    differences.push("the trace has no session_end event, so there is no recorded outcome to compare with");
  } else {
    if (end.status !== result.status) differences.push(`status: recorded ${end.status}, replayed ${result.status}${result.error ? ` (${result.error})` : ""}`);
    const recordedAnswer = JSON.stringify(end.answer);
    // A large answer was recorded cut; the replayed one is cut the same way before comparing.
    const replayedAnswer = JSON.stringify(end.answerTruncated && result.answer !== undefined ? capAnswer(result.answer).answer : result.answer);
    if (recordedAnswer !== replayedAnswer) differences.push(`answer: recorded ${preview(recordedAnswer)}, replayed ${preview(replayedAnswer)}`);
  }
  return {
    result,
    recorded: end ? { status: end.status, ...(end.answer !== undefined ? { answer: end.answer } : {}), iterations: end.iterations } : undefined,
    reproduced: differences.length === 0,
    differences,
    replies: { recorded: model.recorded, used: model.used },
  };
}

function preview(json: string | undefined): string {
  if (json === undefined) return "no answer";
  return clip(json, 120);
}
