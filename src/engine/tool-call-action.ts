import { hostFaultMessage } from "../tools/call-tool.ts";
import { validateToolArguments } from "../tools/validate-arguments.ts";
import { TRACE_RESULT_CHARS } from "./code-action.ts";
import type { EngineSession } from "./engine-session.ts";
import type { Tool } from "../tools/tool.ts";
import { rewriteWithFallback } from "./fallback-rewrite.ts";
import { runHostToolCall } from "./host-tool-call.ts";
import type { Action, ActionOutcome } from "./protocol.ts";

/** A tool-call action and what came of it. */
export type ToolCallOutcome = Exclude<ActionOutcome, { readonly report: unknown }>;

/**
 * Runs one `tool_call` action: a call of a tool the session does not have, or with
 * arguments its schema refuses (`validateToolArguments`, every error listed), does not
 * run; a valid one runs between the tool hooks (`runHostToolCall`). An
 * `invalid_tool_call` does not run either — unless the session has a `fallbackModel`:
 * then a call that cannot run is sent to it once to be rewritten, and the rewritten
 * call runs (its `tool_call` event says `rewrittenFrom`). Every failure is an outcome the protocol
 * renders for the model, never a throw; each call is a `tool_call` event.
 */
export async function runToolCallAction(session: EngineSession, written: Extract<Action, { kind: "tool_call" | "invalid_tool_call" }>): Promise<ToolCallOutcome> {
  // The call as it runs: as written, or as the fallback model rewrote it.
  let action = written;
  const started = session.now();
  let event: { readonly type: "tool_call"; readonly iteration: number; readonly index: number; readonly tool: string; readonly args: readonly unknown[]; readonly line: number; readonly callId: string; readonly rewrittenFrom?: string } = { type: "tool_call", iteration: session.iterations, index: action.index, tool: action.name ?? "", args: action.kind === "tool_call" ? [action.arguments] : [action.raw], line: 0, callId: action.id };
  const fail = (error: string, hostError?: string): ToolCallOutcome => {
    session.emit({ ...event, durationMs: Math.round(session.now() - started), error: hostError ?? error, ...(hostError !== undefined ? { hostFault: true } : {}) });
    // A host fault was recorded where the tool ran.
    if (session.hooks.active && hostError === undefined) session.turn.recordToolCall({ name: action.name ?? "", arguments: action.kind === "tool_call" ? action.arguments : action.raw, ok: false, error });
    return { action, ok: false, error };
  };
  const checked = checkCall(session, action);
  let call: { readonly tool: Tool; readonly args: Record<string, unknown> };
  if (!("error" in checked)) call = checked;
  else {
    // With a fallback model, a call that cannot run is rewritten once; otherwise (or when that fails too) its error goes back.
    const rewritten = await rewriteWithFallback(session, written, checked.error);
    if (!rewritten?.ok) return fail(rewritten ? `${checked.error} (the fallback model's rewrite failed too: ${rewritten.error})` : checked.error);
    call = { tool: session.tools.get(rewritten.name)!, args: rewritten.arguments };
    action = { kind: "tool_call", index: written.index, id: written.id, name: rewritten.name, arguments: rewritten.arguments, raw: written.raw };
    event = { ...event, tool: rewritten.name, args: [rewritten.arguments], rewrittenFrom: written.raw };
  }
  const { tool, args } = call;
  const result = await runHostToolCall(session, { id: action.id, tool, args });
  if (!result.ok) {
    // A fault of the tool: the host gets the real message, the model a neutral one (not a hint that its arguments were wrong).
    if (result.hostFault) return fail(hostFaultMessage(tool.name), result.error);
    session.emit({ ...event, durationMs: Math.round(session.now() - started), error: result.error });
    return { action, ok: false, error: `${tool.name}: ${result.error}` };
  }
  session.emit({ ...event, resultChars: result.chars, truncated: result.truncated, durationMs: Math.round(session.now() - started), result: result.chars <= TRACE_RESULT_CHARS ? result.value : undefined });
  return { action, ok: true, value: result.value, chars: result.chars, truncated: result.truncated };
}

/** The tool and valid arguments of a call, or why it cannot run. */
function checkCall(session: EngineSession, action: Extract<Action, { kind: "tool_call" | "invalid_tool_call" }>): { readonly tool: Tool; readonly args: Record<string, unknown> } | { readonly error: string } {
  if (action.kind === "invalid_tool_call") return { error: action.error };
  const tool = session.tools.get(action.name);
  if (!tool) return { error: `there is no tool named '${action.name}'; the tools are ${[...session.tools.keys()].join(", ") || "(none)"}` };
  const checked = validateToolArguments(tool, action.arguments);
  return checked.ok ? { tool, args: checked.args } : { error: checked.message };
}
