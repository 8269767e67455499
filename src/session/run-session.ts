import { randomBytes, randomUUID } from "node:crypto";
import { createIsolateSandbox, DEFAULT_MAX_OUTPUT_CHARS, parseGuest, type Sandbox, type SandboxOptions } from "../../sandbox/index.ts";
import type { ChatMessage, ModelClient, ModelResponse } from "../model/model-client.ts";
import type { JsonValue } from "../tools/json-schema.ts";
import type { Tool } from "../tools/tool.ts";
import { checkToolArguments, toolSignature } from "../tools/tool-arguments.ts";
import { extractCodeBlocks } from "../intercept/extract-code-blocks.ts";
import { interceptBlock, rewriteBlock } from "../intercept/intercept-block.ts";
import { describeContext } from "./describe-context.ts";
import type { SessionEvent, SessionEventInput } from "./events.ts";
import { formatFeedback, type BlockReport } from "./format-feedback.ts";
import { loadPrompt, renderPrompt } from "./prompts.ts";
import type { SessionResult, SessionStatus, SessionUsage } from "./session-result.ts";
import { TraceWriter } from "./trace-writer.ts";
import { truncateJson } from "./truncate-json.ts";

/** Default number of model turns. */
export const DEFAULT_MAX_ITERATIONS = 20;
/** Default cap on one tool result, serialized. */
export const DEFAULT_MAX_TOOL_RESULT_CHARS = 1_000_000;
/** Tool results up to this size are copied into the trace whole; larger ones only by size. */
const TRACE_RESULT_CHARS = 20_000;

/** Options of `runSession`. */
export interface SessionOptions {
  /** What to answer. */
  readonly question: string;
  /** Exposed in the sandbox as the variable `context`: a string or any JSON value. */
  readonly context?: JsonValue;
  /** The model that writes the code. */
  readonly model: ModelClient;
  /** Extra tools, called from guest code in the intercepted form. */
  readonly tools?: readonly Tool[];
  /** Model turns before giving up. Default 20. */
  readonly maxIterations?: number;
  /** Wall-clock limit for the whole session; none by default. */
  readonly timeoutMs?: number;
  /** Sandbox limits: per-block timeout (30 s), memory (128 MB), output per block (20,000 chars). */
  readonly sandbox?: SandboxOptions;
  /** Cap on one tool result's JSON; bigger results are cut with a notice. Default 1,000,000. */
  readonly maxToolResultChars?: number;
  /** Receives every event as it happens. An exception thrown here is reported once and otherwise ignored. */
  readonly onEvent?: (event: SessionEvent) => void;
  /** Writes every event to this JSONL file as it happens. */
  readonly tracePath?: string;
  /** Cancels the session (status `error`). */
  readonly signal?: AbortSignal;
  /** Replaces the system prompt template (slots as in `prompts/system.md`). */
  readonly systemPromptTemplate?: string;
  /** Test and embedding hooks: id generation and clock. */
  readonly _internal?: { readonly generateId?: () => string; readonly now?: () => number };
}

/**
 * Runs one RLM session: the model writes JavaScript blocks, tool calls in them are
 * intercepted and run in the host, the rest runs in an isolated-vm sandbox, and the
 * session ends when a block executes `FINAL(answer)`, or at a limit.
 * Guest faults never throw: they are fed back to the model. The returned promise
 * rejects only for invalid options.
 *
 * @example
 * const result = await runSession({
 *   question: "How many lines mention ERROR?",
 *   context: logText,
 *   model: new OpenAICompatibleModel({ model: "qwen2.5-coder:7b" }),
 * });
 * if (result.status === "final") console.log(result.answer);
 */
export async function runSession(options: SessionOptions): Promise<SessionResult> {
  const {
    question,
    context,
    model,
    tools = [],
    maxIterations = DEFAULT_MAX_ITERATIONS,
    timeoutMs,
    sandbox: sandboxOptions = {},
    maxToolResultChars = DEFAULT_MAX_TOOL_RESULT_CHARS,
    onEvent,
    tracePath,
    signal,
    systemPromptTemplate,
    _internal = {},
  } = options;
  if (typeof question !== "string" || question.trim() === "") throw new TypeError("runSession: question must be a non-empty string.");
  if (!model || typeof model.complete !== "function") throw new TypeError("runSession: model must be a ModelClient (an object with complete(request)).");
  if (!Number.isInteger(maxIterations) || maxIterations < 1) throw new RangeError(`runSession: maxIterations must be a positive integer, got ${maxIterations}.`);
  const toolMap = new Map<string, Tool>();
  for (const tool of tools) {
    if (toolMap.has(tool.name)) throw new TypeError(`runSession: two tools are named '${tool.name}'.`);
    toolMap.set(tool.name, tool);
  }

  const now = _internal.now ?? (() => performance.now());
  const sessionId = (_internal.generateId ?? randomUUID)();
  const injectionTag = `${sessionId.replace(/[^a-zA-Z0-9]/g, "").slice(0, 8)}${randomBytes(3).toString("hex")}`;
  const started = now();
  const trace = tracePath ? new TraceWriter(tracePath) : undefined;
  let listenerFailed = false;
  const emit = (event: SessionEventInput): void => {
    const full = { ...event, sessionId, time: new Date().toISOString(), elapsedMs: Math.round(now() - started), depth: 0 } as SessionEvent;
    trace?.write(full);
    if (onEvent) {
      try {
        onEvent(full);
      } catch (error) {
        if (!listenerFailed) {
          listenerFailed = true;
          trace?.write({ ...full, type: "error", message: `onEvent threw: ${(error as Error)?.message ?? error}` } as SessionEvent);
        }
      }
    }
  };

  const controller = new AbortController();
  const abortFrom = (reason: unknown) => controller.abort(reason);
  signal?.addEventListener("abort", () => abortFrom(signal.reason), { once: true });
  if (signal?.aborted) abortFrom(signal.reason);
  const timer = timeoutMs !== undefined ? setTimeout(() => abortFrom(new SessionTimeout(timeoutMs)), timeoutMs) : undefined;

  const usage = { promptTokens: 0, completionTokens: 0, modelCalls: 0 };
  let iterations = 0;
  let sandbox: Sandbox | undefined;
  let injected = 0;

  const finish = (status: SessionStatus, extra: { answer?: JsonValue; error?: string } = {}): SessionResult => {
    const result: SessionResult = { status, ...("answer" in extra ? { answer: extra.answer } : {}), iterations, usage: { ...usage } as SessionUsage, sessionId, ...(extra.error ? { error: extra.error } : {}), durationMs: now() - started };
    emit({ type: "session_end", status, iterations, usage: result.usage, durationMs: Math.round(result.durationMs), ...("answer" in extra ? { answer: extra.answer } : {}), ...(extra.error ? { error: extra.error } : {}) });
    return result;
  };

  const contextText = describeContext(context);
  emit({ type: "session_start", question, model: model.modelId, context: contextText, tools: [...toolMap.keys()], maxIterations });

  try {
    sandbox = await createIsolateSandbox(sandboxOptions);
    if (context !== undefined) await sandbox.setPersistentGlobal("context", context);
    for (const tool of toolMap.values()) {
      await sandbox.defineStub(tool.name, `${tool.name} can only be called as a top-level statement that assigns its result, with literal arguments: const result = ${tool.name}(...). It cannot be called from functions, loops, conditions, other expressions, eval or through another name.`);
    }

    const messages: ChatMessage[] = [
      { role: "system", content: renderSystemPrompt(systemPromptTemplate, contextText, [...toolMap.values()], sandboxOptions.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS) },
      { role: "user", content: renderPrompt(loadPrompt("question"), { question }) },
    ];
    let nudged = false;

    while (iterations < maxIterations) {
      if (controller.signal.aborted) return finishAborted(controller.signal.reason);
      iterations++;
      const callStarted = now();
      let response: ModelResponse;
      try {
        response = await model.complete({ messages: [...messages], signal: controller.signal });
      } catch (error) {
        if (controller.signal.aborted) return finishAborted(controller.signal.reason);
        const message = `model call failed: ${(error as Error)?.message ?? error}`;
        emit({ type: "error", iteration: iterations, message });
        return finish("error", { error: message });
      }
      usage.promptTokens += response.usage.promptTokens;
      usage.completionTokens += response.usage.completionTokens;
      usage.modelCalls++;
      emit({ type: "model_call", iteration: iterations, model: response.model || model.modelId, messages: messages.length, promptTokens: response.usage.promptTokens, completionTokens: response.usage.completionTokens, usageEstimated: response.usageEstimated === true, durationMs: Math.round(now() - callStarted), finishReason: response.rawFinishReason ?? response.finishReason, text: response.text });
      messages.push({ role: "assistant", content: response.text });

      const { runnable, skipped } = extractCodeBlocks(response.text, parsesAsJavaScript);
      if (runnable.length === 0) {
        if (nudged) {
          const message = "the model replied twice in a row without a ```js code block";
          emit({ type: "error", iteration: iterations, message });
          return finish("error", { error: message });
        }
        nudged = true;
        const hint = skipped.some((block) => block.language === "") ? " Your reply had an untagged ``` fence: tag it as ```js so it runs." : "";
        const nudge = renderPrompt(loadPrompt("nudge"), { untagged_hint: hint });
        emit({ type: "feedback", iteration: iterations, text: nudge });
        messages.push({ role: "user", content: nudge });
        continue;
      }
      nudged = false;

      const reports: BlockReport[] = [];
      for (const [index, block] of runnable.entries()) {
        if (controller.signal.aborted) return finishAborted(controller.signal.reason);
        emit({ type: "code_block", iteration: iterations, index, language: block.language, code: block.code, unclosed: block.unclosed });
        const report = await runBlock(index, block.code, block.unclosed);
        reports.push(report);
        if (report.result?.final) {
          const answer = report.result.final.value as JsonValue;
          emit({ type: "final", iteration: iterations, answer });
          return finish("final", { answer });
        }
      }
      const notes: string[] = [];
      if (iterations === maxIterations - 1) notes.push(renderPrompt(loadPrompt("final-turn"), { reason: `You have used ${iterations} of ${maxIterations} turns.` }));
      const feedback = formatFeedback(reports, notes);
      emit({ type: "feedback", iteration: iterations, text: feedback });
      messages.push({ role: "user", content: feedback });
    }
    return finish("max_iterations", { error: `no FINAL answer after ${maxIterations} iterations` });
  } catch (error) {
    if (controller.signal.aborted) return finishAborted(controller.signal.reason);
    const message = (error as Error)?.message ?? String(error);
    emit({ type: "error", iteration: iterations, message });
    return finish("error", { error: message });
  } finally {
    clearTimeout(timer);
    sandbox?.dispose();
  }

  function finishAborted(reason: unknown): SessionResult {
    if (reason instanceof SessionTimeout) return finish("timeout", { error: reason.message });
    const message = `session cancelled${reason instanceof Error ? `: ${reason.message}` : ""}`;
    emit({ type: "error", iteration: iterations, message });
    return finish("error", { error: message });
  }

  async function runBlock(index: number, code: string, unclosed: boolean): Promise<BlockReport> {
    const intercepted = interceptBlock(code, new Set(toolMap.keys()));
    if (!intercepted.ok) {
      emit({ type: "intercept_rejected", iteration: iterations, index, problems: intercepted.problems });
      return { index, code, unclosed, problems: intercepted.problems, toolCalls: [] };
    }
    const names: string[] = [];
    const toolCalls: BlockReport["toolCalls"][number][] = [];
    for (const call of intercepted.calls) {
      const tool = toolMap.get(call.tool)!;
      const callStarted = now();
      const argsPreview = call.source.length > 120 ? `${call.source.slice(0, 117)}...` : call.source;
      const checked = checkToolArguments(tool, call.args);
      let failure: string | undefined;
      let value: JsonValue | undefined;
      if (!checked.ok) {
        failure = `${call.tool} at line ${call.line}: ${checked.message}`;
      } else {
        try {
          value = (await tool.handler(checked.args, { sessionId, signal: controller.signal })) ?? null;
          JSON.stringify(value);
        } catch (error) {
          failure = `${call.tool} failed at line ${call.line} (${argsPreview}): ${(error as Error)?.message ?? error}. Hint: check the arguments against ${toolSignature(tool)}.`;
        }
      }
      if (failure !== undefined || value === undefined) {
        emit({ type: "tool_call", iteration: iterations, index, tool: call.tool, args: call.args, line: call.line, durationMs: Math.round(now() - callStarted), error: failure });
        return { index, code, unclosed, toolCalls, toolError: failure };
      }
      const cut = truncateJson(value, maxToolResultChars);
      const name = `__rlm_${injectionTag}_${injected++}`;
      await sandbox!.setGlobal(name, cut.value);
      names.push(name);
      toolCalls.push({ source: argsPreview, target: call.target, chars: cut.chars, truncated: cut.truncated, limitChars: maxToolResultChars });
      emit({ type: "tool_call", iteration: iterations, index, tool: call.tool, args: call.args, line: call.line, injectedAs: name, resultChars: cut.chars, truncated: cut.truncated, durationMs: Math.round(now() - callStarted), result: cut.chars <= TRACE_RESULT_CHARS ? cut.value : undefined });
    }
    const rewritten = rewriteBlock(code, intercepted.calls, names);
    const result = await sandbox!.execute(rewritten);
    emit({ type: "sandbox_result", iteration: iterations, index, output: result.output, outputTruncated: result.outputTruncated, ...(result.error ? { error: result.error } : {}), final: result.final !== undefined, reset: result.reset, durationMs: Math.round(result.durationMs) });
    return { index, code, unclosed, toolCalls, result };
  }
}

class SessionTimeout extends Error {
  override readonly name = "SessionTimeout";
  constructor(timeoutMs: number) {
    super(`the session did not finish within ${timeoutMs} ms`);
  }
}

function parsesAsJavaScript(code: string): boolean {
  try {
    parseGuest(code);
    return true;
  } catch {
    return false;
  }
}

function renderSystemPrompt(template: string | undefined, contextText: string, tools: readonly Tool[], maxOutputChars: number): string {
  const toolsSection = tools.length === 0 ? "" : renderPrompt(loadPrompt("tools"), {
    tool_list: tools.map((tool) => `- \`${toolSignature(tool)}\` — ${tool.description}${tool.example ? `\n  e.g. \`${tool.example}\`` : ""}`).join("\n"),
  });
  return renderPrompt(template ?? loadPrompt("system"), {
    max_output_chars: maxOutputChars.toLocaleString("en-US"),
    context_description: contextText,
    tools_section: toolsSection,
    extra_sections: "",
  });
}
