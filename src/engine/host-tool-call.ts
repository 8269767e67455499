import type { JsonValue } from "../core/json-value.ts";
import { callTool } from "../tools/call-tool.ts";
import { truncateJson } from "../tools/truncate-json.ts";
import type { Tool } from "../tools/tool.ts";
import type { EngineSession } from "./engine-session.ts";
import { hookBase } from "./hook-base.ts";

/**
 * What one host tool call came to: its result (cut to size), or why there is none:
 * a fault of the tool (`hostFault`: `error` is the real message, for the host only) or
 * a hook's veto or replacement (`error` is for the model).
 */
export type HostCallResult =
  | { readonly ok: true; readonly value: JsonValue; readonly chars: number; readonly truncated: boolean }
  | { readonly ok: false; readonly error: string; readonly hostFault: boolean };

/**
 * Runs a tool whose arguments were validated, between the session's hooks: the
 * `before_tool` hooks may change the arguments or veto the call (it then does not
 * run), the tool runs (`callTool`: a throw or a non-JSON value is a host fault), and
 * the `after_tool` hooks may replace the result (a replaced value is measured and cut
 * again). What ran is recorded in the turn ledger.
 */
export async function runHostToolCall(session: EngineSession, { id, tool, args }: { readonly id: string; readonly tool: Tool; readonly args: Record<string, unknown> }): Promise<HostCallResult> {
  const call = { id, name: tool.name, arguments: args as unknown };
  const record = (ok: boolean, error?: string, value?: JsonValue): void => {
    if (session.hooks.active) session.turn.recordToolCall({ name: tool.name, arguments: call.arguments, ok, ...(error !== undefined ? { error } : {}) }, value !== undefined ? JSON.stringify(value) : undefined);
  };
  if (session.hooks.has("before_tool")) {
    const verdict = await session.hooks.run({ ...hookBase(session), point: "before_tool", call, tool });
    if (verdict.vetoes.length > 0) {
      const error = `not run: ${verdict.vetoes.join("; ")}`;
      record(false, error);
      return { ok: false, error, hostFault: false };
    }
  }
  const outcome = await callTool(tool, call.arguments as Record<string, unknown>, { sessionId: session.sessionId, signal: session.signal }, session.limits.maxToolResultChars);
  let result: HostCallResult = outcome.ok ? outcome : { ok: false, error: outcome.hostError, hostFault: true };
  if (session.hooks.has("after_tool")) {
    const seen = outcome.ok ? { ok: true as const, value: outcome.value } : { ok: false as const, error: outcome.hostError };
    const fields = { ...hookBase(session), point: "after_tool" as const, call: { ...call }, result: seen };
    await session.hooks.run(fields);
    const replaced = fields.result;
    if (replaced !== seen) result = replaced.ok ? { ok: true, ...truncateJson(replaced.value, session.limits.maxToolResultChars) } : { ok: false, error: replaced.error, hostFault: false };
  }
  if (result.ok) record(true, undefined, result.value);
  else record(false, result.error);
  return result;
}
