import { hostFaultMessage } from "../tools/call-tool.ts";
import { validateToolArguments } from "../tools/validate-arguments.ts";
import { TRACE_RESULT_CHARS } from "./code-action.ts";
import type { EngineSession } from "./engine-session.ts";
import { runHostToolCall } from "./host-tool-call.ts";
import type { Action, ActionOutcome } from "./protocol.ts";

/** A tool-call action and what came of it. */
export type ToolCallOutcome = Exclude<ActionOutcome, { readonly report: unknown }>;

/**
 * Runs one `tool_call` action: a call of a tool the session does not have, or with
 * arguments its schema refuses (`validateToolArguments`, every error listed), does not
 * run; a valid one runs between the tool hooks (`runHostToolCall`). An
 * `invalid_tool_call` does not run either. Every failure is an outcome the protocol
 * renders for the model, never a throw; each call is a `tool_call` event.
 */
export async function runToolCallAction(session: EngineSession, action: Extract<Action, { kind: "tool_call" | "invalid_tool_call" }>): Promise<ToolCallOutcome> {
  const started = session.now();
  const event = { type: "tool_call" as const, iteration: session.iterations, index: action.index, tool: action.name ?? "", args: action.kind === "tool_call" ? [action.arguments] : [action.raw], line: 0, callId: action.id };
  const fail = (error: string, hostError?: string): ToolCallOutcome => {
    session.emit({ ...event, durationMs: Math.round(session.now() - started), error: hostError ?? error, ...(hostError !== undefined ? { hostFault: true } : {}) });
    // A host fault was recorded where the tool ran.
    if (session.hooks.active && hostError === undefined) session.turn.recordToolCall({ name: action.name ?? "", arguments: action.kind === "tool_call" ? action.arguments : action.raw, ok: false, error });
    return { action, ok: false, error };
  };
  if (action.kind === "invalid_tool_call") return fail(action.error);
  const tool = session.tools.get(action.name);
  if (!tool) return fail(`there is no tool named '${action.name}'; the tools are ${[...session.tools.keys()].join(", ") || "(none)"}`);
  const checked = validateToolArguments(tool, action.arguments);
  if (!checked.ok) return fail(checked.message);
  const result = await runHostToolCall(session, { id: action.id, tool, args: checked.args });
  if (!result.ok) {
    // A fault of the tool: the host gets the real message, the model a neutral one (not a hint that its arguments were wrong).
    if (result.hostFault) return fail(hostFaultMessage(tool.name), result.error);
    session.emit({ ...event, durationMs: Math.round(session.now() - started), error: result.error });
    return { action, ok: false, error: `${tool.name}: ${result.error}` };
  }
  session.emit({ ...event, resultChars: result.chars, truncated: result.truncated, durationMs: Math.round(session.now() - started), result: result.chars <= TRACE_RESULT_CHARS ? result.value : undefined });
  return { action, ok: true, value: result.value, chars: result.chars, truncated: result.truncated };
}
