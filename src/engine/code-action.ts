import { RESERVED_PREFIX } from "../../sandbox/index.ts";
import { raceAbort } from "../core/abort.ts";
import { interceptBlock, rewriteBlockMapped } from "../intercept/intercept-block.ts";
import { hostFaultFeedback } from "../tools/call-tool.ts";
import { checkToolArguments } from "../tools/tool-arguments.ts";
import { clip } from "../util/clip.ts";
import type { BlockReport } from "./block-report.ts";
import { boundResult } from "./bound-result.ts";
import type { EngineSession } from "./engine-session.ts";
import { runHostToolCall } from "./host-tool-call.ts";
import type { Action } from "./protocol.ts";

/** Tool results up to this size are copied into the trace whole; larger ones only by size. */
export const TRACE_RESULT_CHARS = 20_000;

/**
 * Runs one `code` action: the interceptor checks the block and finds its tool calls
 * (a refused block runs nothing); each call is checked against its schema and run in
 * the host between the tool hooks, its result injected into the sandbox under a
 * reserved name (a failed call fails the block before any of it runs); then the
 * rewritten block runs in the sandbox, its errors mapped back to the model's lines.
 */
export async function runCodeAction(session: EngineSession, { index, code, unclosed }: Extract<Action, { kind: "code" }>): Promise<BlockReport> {
  const { emit, now } = session;
  const iteration = session.iterations;
  const intercepted = interceptBlock(code, new Set(session.tools.keys()));
  if (!intercepted.ok) {
    emit({ type: "intercept_rejected", iteration, index, problems: intercepted.problems });
    return { index, code, unclosed, problems: intercepted.problems, toolCalls: [] };
  }
  const sandbox = await session.sandbox();
  const names: string[] = [];
  const toolCalls: BlockReport["toolCalls"][number][] = [];
  for (const [position, call] of intercepted.calls.entries()) {
    const tool = session.tools.get(call.tool)!;
    const callStarted = now();
    const argsPreview = clip(call.source, 120);
    const base = { type: "tool_call" as const, iteration, index, tool: call.tool, args: call.args, line: call.line };
    // A failed call fails the block before anything of it runs.
    const fail = (message: string): BlockReport => {
      emit({ ...base, durationMs: Math.round(now() - callStarted), error: message });
      return { index, code, unclosed, toolCalls, toolError: message };
    };
    const checked = checkToolArguments(tool, call.args);
    if (!checked.ok) return fail(`${call.tool} at line ${call.line}: ${checked.message}`);
    const result = await runHostToolCall(session, { id: `${iteration}.${index}.${position}`, tool, args: checked.args });
    if (!result.ok && result.hostFault) {
      // A handler that throws or returns something that is not JSON is the host's fault: the host gets the real message.
      emit({ ...base, durationMs: Math.round(now() - callStarted), error: result.error, hostFault: true });
      return { index, code, unclosed, toolCalls, toolError: hostFaultFeedback(call.tool, call.line, argsPreview) };
    }
    if (!result.ok) return fail(`${call.tool} at line ${call.line} ${result.error}`);
    const name = `${RESERVED_PREFIX}_${session.injectionTag}_${session.injected++}`;
    try {
      await sandbox.setGlobal(name, result.value);
    } catch {
      // Guest code can block new globals (Object.preventExtensions(globalThis), a read-only accessor): a fault of the block, not of the session.
      return fail(`${call.tool} at line ${call.line} ran, but its result could not be handed to the sandbox, because earlier code made the global object refuse new names (e.g. Object.preventExtensions(globalThis) or a read-only property). The block's own code did not run.`);
    }
    names.push(name);
    toolCalls.push({ source: argsPreview, target: call.target, chars: result.chars, truncated: result.truncated, limitChars: session.limits.maxToolResultChars });
    emit({ ...base, injectedAs: name, resultChars: result.chars, truncated: result.truncated, durationMs: Math.round(now() - callStarted), result: result.chars <= TRACE_RESULT_CHARS ? result.value : undefined });
  }
  const rewritten = rewriteBlockMapped(code, intercepted.calls, names);
  // Waits on sub-calls are outside the block timeout, so the session's own signal bounds the block too.
  const result = boundResult(await raceAbort(sandbox.execute(rewritten.code), session.signal), rewritten);
  emit({ type: "sandbox_result", iteration, index, output: result.output, outputTruncated: result.outputTruncated, ...(result.error ? { error: result.error } : {}), final: result.final !== undefined, reset: result.reset, durationMs: Math.round(result.durationMs) });
  if (session.hooks.active) session.turn.recordBlock(result.output);
  return { index, code, unclosed, toolCalls, result };
}
