import { randomBytes, randomUUID } from "node:crypto";
import type { Program } from "acorn";
import { DEFAULT_MAX_OUTPUT_CHARS, DEFAULT_MEMORY_LIMIT_MB, parseGuest, type Sandbox, type SandboxFactory, RESERVED_PREFIX } from "../../sandbox/index.ts";
import { resolveSandboxFactory, type SessionSandboxOptions } from "./sandbox-backend.ts";
import type { ChatMessage, ModelClient, ModelResponse } from "../model/model-client.ts";
import type { JsonValue } from "../tools/json-schema.ts";
import type { Tool } from "../tools/tool.ts";
import { checkToolArguments, toolSignature } from "../tools/tool-arguments.ts";
import { interceptBlock, rewriteBlockMapped } from "../intercept/intercept-block.ts";
import { boundResult } from "./bound-result.ts";
import { capEvent } from "./cap-event.ts";
import { describeContext } from "./describe-context.ts";
import type { SessionEvent, SessionEventInput } from "../core/events.ts";
import { formatFeedback, type BlockReport } from "./format-feedback.ts";
import { relayModelProgress } from "../model/model-progress-events.ts";
import { loadPrompt, renderPrompt } from "../prompts/prompts.ts";
import type { SessionResult, SessionStatus, SessionUsage } from "../core/session-result.ts";
import { TraceWriter } from "./trace-writer.ts";
import { createNavTools, navRepoSummary, type NavTools, type NavToolsOptions } from "../nav/index.ts";
import { callTool, hostFaultFeedback } from "./call-tool.ts";
import { raceAbort, SessionEnded, SessionTimeout } from "../core/abort.ts";
import type { BudgetHit, BudgetOptions } from "../subcalls/budget-tracker.ts";
import { createCallTree, type CallTree, type ParentLink } from "../subcalls/call-tree.ts";
import { priceCall, type PriceTable } from "../subcalls/price-table.ts";
import { createSubcallFunctions, exposeSubcallFunctions, SUBCALL_FUNCTION_NAMES } from "../subcalls/subcall-functions.ts";
import { renderSubcallSection } from "../subcalls/subcall-prompt.ts";
import { PendingSubcalls } from "../subcalls/pending-subcalls.ts";
import type { SubcallLimits } from "../subcalls/subcall-limits.ts";
import { estimateUsage } from "../model/estimate-tokens.ts";
import { DEFAULT_MAX_ITERATIONS, DEFAULT_MAX_NUDGES, DEFAULT_MAX_TOKENS } from "./session-defaults.ts";
import { HistoryBudget, turnMaxTokens } from "./history-budget.ts";
import { emptyTurnRecord, turnRecord } from "./turn-record.ts";
import { readTurn } from "./read-turn.ts";
import { clip } from "../util/clip.ts";
import { InvalidOptionsError } from "../core/errors/invalid-options-error.ts";
import { isModelClient, validateSessionOptions } from "./validate-options.ts";

export { DEFAULT_MAX_ITERATIONS, DEFAULT_MAX_NUDGES, DEFAULT_MAX_TOKENS };
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
  /**
   * A repository to answer questions about: a path (opened with `createNavTools`
   * and closed at the end) or already-open `NavTools`. Registers `nav_info`,
   * `nav_ls`, `nav_outline`, `nav_read`, `nav_search` and `nav_refs`, and tells the model in
   * the system prompt what repository it is looking at.
   */
  readonly repo?: string | NavTools;
  /** Options for opening `repo` when it is a path (index cache location, size caps, search time limit). */
  readonly navOptions?: NavToolsOptions;
  /** Model turns before giving up. Default 20. */
  readonly maxIterations?: number;
  /** Wall-clock limit for the whole session; none by default. */
  readonly timeoutMs?: number;
  /** Sandbox limits: per-block timeout (30 s), memory (128 MB), output per block (20,000 chars); and `backend`, where the code runs. */
  readonly sandbox?: SessionSandboxOptions;
  /** Makes the session's sandbox (and its child sessions'); overrides `sandbox.backend`. */
  readonly sandboxFactory?: SandboxFactory;
  /** Cap on one tool result's JSON; bigger results are cut with a notice. Default 1,000,000. */
  readonly maxToolResultChars?: number;
  /** Receives every event as it happens. An exception thrown here is reported once and otherwise ignored. */
  readonly onEvent?: (event: SessionEvent) => void;
  /** Writes every event to this JSONL file as it happens. */
  readonly tracePath?: string;
  /** Cancels the session (status `error`). */
  readonly signal?: AbortSignal;
  /**
   * Sends the model's reasoning (`<think>` blocks, the server's `reasoning_content`)
   * back in the history, in `<think>` tags. Default false: the history holds only
   * what the model said; the trace and the HTML view keep the reasoning either way.
   */
  readonly keepReasoning?: boolean;
  /**
   * Completion token limit of each model turn, sent as `max_tokens` (it wins over the
   * client's own default). Default 4,096. A reply cut at this limit runs only its
   * complete blocks, and the model is told where it was cut.
   */
  readonly maxTokens?: number;
  /**
   * The root model's context window in tokens; default `model.contextWindow`. When
   * known, each request is kept within it: the oldest turns are compacted into short
   * records (system prompt, question and the last turns stay whole; sandbox variables
   * are untouched), and `maxTokens` is capped at half of it. Child sessions use their
   * sub-model's own `contextWindow`.
   */
  readonly contextWindow?: number;
  /** Replies in a row without runnable code that get a nudge; the next one ends the session with status `no_code`. Default 2. */
  readonly maxNudges?: number;
  /** Replaces the system prompt template (slots as in `prompts/system.md`). */
  readonly systemPromptTemplate?: string;
  /**
   * Answers `llm_query` / `llm_query_batched` and writes the code of `rlm_query`
   * child sessions. Default: the root `model`.
   */
  readonly subModel?: ModelClient;
  /** Exposes `llm_query`, `llm_query_batched`, `rlm_query` and `budget()` in the sandbox and teaches them in the system prompt. Default: on; pass `false` for a session without sub-calls (e.g. a tool named `llm_query`). */
  readonly subcalls?: boolean;
  /** Limits over the whole call tree (root turns, sub-calls, child sessions). None by default; `maxDepth` defaults to 1. */
  readonly budget?: BudgetOptions;
  /** Prices per million tokens by model id, over `DEFAULT_PRICES`. Models without a price cost 0 (listed in `usage.unpricedModels`). */
  readonly prices?: PriceTable;
  /** `llm_query` calls in flight at once across the tree. Default 8. */
  readonly subcallConcurrency?: number;
  /** Time limit of one sub-call: an `llm_query` reply, or a whole `rlm_query` child session. Default 180,000 ms. */
  readonly subcallTimeoutMs?: number;
  /** Caches `llm_query` replies as JSON files in this folder, keyed by sub-model, prompt and options. Off by default. */
  readonly subcallCacheDir?: string;
  /** Bounds on sub-calls: pending calls and prompt characters per session, one prompt's size, the grace of un-awaited calls, child sessions at once and their memory. Each has a default (see `SubcallLimits`). */
  readonly subcallLimits?: SubcallLimits;
  /** Test and embedding hooks: id generation and clock. `parent` is set by `rlm_query` for child sessions. */
  readonly _internal?: { readonly generateId?: () => string; readonly now?: () => number; readonly parent?: ParentLink };
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
    repo,
    navOptions,
    maxIterations = DEFAULT_MAX_ITERATIONS,
    timeoutMs,
    sandbox: sandboxOptions = {},
    sandboxFactory: givenSandboxFactory,
    maxToolResultChars = DEFAULT_MAX_TOOL_RESULT_CHARS,
    onEvent,
    tracePath,
    signal,
    systemPromptTemplate,
    keepReasoning = false,
    maxNudges = DEFAULT_MAX_NUDGES,
    maxTokens: requestedMaxTokens = DEFAULT_MAX_TOKENS,
    contextWindow = options.model?.contextWindow,
    subModel = options.model,
    subcalls,
    budget,
    prices,
    subcallConcurrency,
    subcallTimeoutMs,
    subcallCacheDir,
    subcallLimits,
    _internal = {},
  } = options;
  // Invalid options reject here, before anything starts.
  validateSessionOptions({ question, model, maxIterations, timeoutMs, maxToolResultChars, maxNudges, maxTokens: requestedMaxTokens, contextWindow, systemPromptTemplate, hasTools: tools.length > 0, hasExtraSections: repo !== undefined || subcalls !== false });
  const sandboxFactory = resolveSandboxFactory(givenSandboxFactory, sandboxOptions.backend);
  // A path that is not a directory rejects here, before anything starts.
  const nav = typeof repo === "string" ? await createNavTools(repo, navOptions) : repo;
  const ownsNav = typeof repo === "string";
  const navToolNames = new Set(nav?.tools.map((tool) => tool.name) ?? []);
  const toolMap = new Map<string, Tool>();
  for (const tool of [...(nav?.tools ?? []), ...tools]) {
    if (toolMap.has(tool.name)) throw new InvalidOptionsError({ option: "tools", message: `runSession: two tools are named '${tool.name}'.` });
    toolMap.set(tool.name, tool);
  }
  const toolNames: ReadonlySet<string> = new Set(toolMap.keys());
  const parent = _internal.parent;
  const depth = parent?.depth ?? 0;
  const subcallsEnabled = subcalls ?? true;
  if (subcallsEnabled) {
    if (!isModelClient(subModel)) throw new InvalidOptionsError({ option: "subModel", message: "runSession: subModel must be a ModelClient (an object with complete(request))." });
    for (const name of SUBCALL_FUNCTION_NAMES) if (toolMap.has(name)) throw new InvalidOptionsError({ option: "tools", message: `runSession: a tool is named '${name}', which sub-calls use; rename the tool or pass subcalls: false.` });
  }

  const now = _internal.now ?? (() => performance.now());
  const sessionId = (_internal.generateId ?? randomUUID)();
  const injectionTag = `${sessionId.replace(/[^a-zA-Z0-9]/g, "").slice(0, 8)}${randomBytes(3).toString("hex")}`;
  const started = now();
  // A child session shares its root's call tree: budgets, limiter, cache, trace and onEvent.
  let tree: CallTree;
  if (parent) {
    tree = parent.tree;
  } else {
    const trace = tracePath ? new TraceWriter(tracePath) : undefined;
    let listenerFailed = false;
    const sink = (full: SessionEvent): void => {
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
    tree = createCallTree({ budget, prices, subcallConcurrency, subcallTimeoutMs, subcallCacheDir, subcallLimits, sink, now, ...(_internal.generateId ? { generateId: _internal.generateId } : {}) });
  }
  const ledger = parent?.ledger ?? tree.rootLedger;
  const emit = (event: SessionEventInput): void => {
    tree.sink(capEvent({ ...event, sessionId, time: new Date().toISOString(), elapsedMs: Math.round(now() - started), depth, ...(parent ? { parentSessionId: parent.parentSessionId } : {}) } as SessionEvent));
  };
  let budgetReported = false;
  const reportBudget = (hit: BudgetHit): void => {
    if (budgetReported) return;
    budgetReported = true;
    emit({ type: "budget_exceeded", iteration: iterations, limit: hit.limit, limitValue: hit.limitValue, used: hit.used, message: hit.message });
  };

  const controller = new AbortController();
  const abortFrom = (reason: unknown) => controller.abort(reason);
  const onCallerAbort = () => abortFrom(signal?.reason);
  signal?.addEventListener("abort", onCallerAbort, { once: true });
  if (signal?.aborted) abortFrom(signal.reason);
  const timer = timeoutMs !== undefined ? setTimeout(() => abortFrom(new SessionTimeout(timeoutMs)), timeoutMs) : undefined;

  let iterations = 0;
  // After a budget runs out the root gets one more turn: "pending" until it is taken.
  let lastTurn: "none" | "pending" | "taken" = "none";
  let sandbox: Sandbox | undefined;
  let injected = 0;
  // Trees of ts blocks parsed to see whether they are JavaScript, until the block runs.
  const parsedBlocks = new Map<string, Program>();
  const pending = new PendingSubcalls(tree.limits, controller.signal);

  const finish = (finishedAs: SessionStatus, extra: { answer?: JsonValue; error?: string } = {}): SessionResult => {
    // Once a budget ran out, a session that ends normally (even with an answer) says so.
    const hit = tree.tracker.exhausted;
    const status: SessionStatus = hit && (finishedAs === "final" || finishedAs === "max_iterations" || finishedAs === "budget_exceeded") ? "budget_exceeded" : finishedAs;
    const budgetField = status === "budget_exceeded" && hit ? { budget: hit } : {};
    const error = status === "budget_exceeded" && hit && !("answer" in extra) ? hit.message : extra.error;
    const usage: SessionUsage = ledger.snapshot();
    const result: SessionResult = { status, ...("answer" in extra ? { answer: extra.answer } : {}), iterations, usage, sessionId, ...(error ? { error } : {}), ...budgetField, durationMs: now() - started };
    emit({ type: "session_end", status, iterations, usage: result.usage, durationMs: Math.round(result.durationMs), ...("answer" in extra ? { answer: extra.answer } : {}), ...(error ? { error } : {}), ...budgetField });
    return result;
  };

  const contextText = describeContext(context, { repo: nav !== undefined, tools: toolMap.size > navToolNames.size });
  emit({ type: "session_start", question, model: model.modelId, context: contextText, tools: [...toolMap.keys()], maxIterations });

  try {
    // Opening a sandbox can wait for a worker process to start; a session stopped meanwhile does not wait for it (and closes it when it comes).
    const opening = sandboxFactory.create(sandboxOptions);
    opening.then(
      (opened) => {
        if (controller.signal.aborted) void opened.dispose();
      },
      () => undefined,
    );
    sandbox = await raceAbort(opening, controller.signal);
    if (context !== undefined) await sandbox.setPersistentGlobal("context", context);
    for (const tool of toolMap.values()) {
      await sandbox.defineStub(tool.name, `${tool.name} can only be called as a top-level statement that assigns its result, with literal arguments: const result = ${tool.name}(...). It cannot be called from functions, loops, conditions, other expressions, eval or through another name.`);
    }
    if (subcallsEnabled) {
      const functions = createSubcallFunctions({
        tree,
        ledger,
        depth,
        subModel,
        pending,
        childSandboxMemoryMb: sandboxOptions.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB,
        emit,
        iteration: () => iterations,
        now,
        reportBudget,
        startChild: (request) =>
          runSession({
            question: request.question,
            ...(request.context !== undefined ? { context: request.context } : {}),
            model: subModel,
            subModel,
            tools,
            ...(nav ? { repo: nav } : {}),
            maxIterations,
            timeoutMs: request.timeoutMs,
            sandbox: sandboxOptions,
            sandboxFactory,
            maxToolResultChars,
            signal: request.signal,
            ...(systemPromptTemplate !== undefined ? { systemPromptTemplate } : {}),
            keepReasoning,
            maxNudges,
            maxTokens: requestedMaxTokens,
            _internal: { now, ...(_internal.generateId ? { generateId: _internal.generateId } : {}), parent: { tree, ledger: request.ledger, depth: depth + 1, parentSessionId: sessionId } },
          }),
      });
      await exposeSubcallFunctions(sandbox, functions);
    }
    const navSection = nav ? renderPrompt(loadPrompt("nav-tools"), { repo_summary: navRepoSummary(await nav.info()) }) : "";
    const subcallSection = subcallsEnabled ? renderSubcallSection({ subModel: subModel.modelId, ...(subModel.contextWindow !== undefined ? { contextWindow: subModel.contextWindow } : {}), concurrency: tree.limiter.limit, depth, maxDepth: tree.tracker.maxDepth, input: context !== undefined ? "context" : nav ? "repo" : "none", hasTools: toolMap.size > 0 }) : "";
    const extraSections = [navSection, subcallSection].filter(Boolean).join("\n");

    const messages: ChatMessage[] = [
      { role: "system", content: renderSystemPrompt(systemPromptTemplate, contextText, [...toolMap.values()].filter((tool) => !navToolNames.has(tool.name)), sandboxOptions.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS, extraSections, context !== undefined, nav !== undefined) },
      { role: "user", content: renderPrompt(loadPrompt("question"), { question }) },
    ];
    let nudges = 0;
    const maxTokens = turnMaxTokens(requestedMaxTokens, contextWindow);
    const history = contextWindow !== undefined ? new HistoryBudget(contextWindow, maxTokens) : undefined;
    const fitHistory = (): readonly ChatMessage[] => {
      if (!history) return messages;
      const fitted = history.fit(messages);
      if (fitted.compaction) emit({ type: "history_compacted", iteration: iterations + 1, ...fitted.compaction });
      return fitted.messages;
    };

    while (iterations < maxIterations) {
      if (controller.signal.aborted) return finishAborted(controller.signal.reason);
      let sent = fitHistory();
      // Every model call is checked against the tree's budget; the root's one last turn after it ran out is let through.
      let decision = tree.tracker.reserve({ model: model.modelId, promptTokens: estimateUsage(sent, "").promptTokens, force: lastTurn === "pending" });
      if (!decision.ok) {
        reportBudget(decision.hit);
        if (depth > 0 || lastTurn === "taken") return finish("budget_exceeded");
        lastTurn = "pending";
        const last = messages[messages.length - 1]!;
        messages[messages.length - 1] = { role: last.role, content: `${last.content}\n\n${renderPrompt(loadPrompt("final-turn"), { reason: decision.hit.message })}` };
        sent = fitHistory();
        decision = tree.tracker.reserve({ model: model.modelId, promptTokens: 0, force: true });
        if (!decision.ok) return finish("budget_exceeded");
      }
      if (lastTurn === "pending") lastTurn = "taken";
      iterations++;
      const callStarted = now();
      let response: ModelResponse;
      try {
        const onProgress = relayModelProgress({ emit, iteration: iterations, model: model.modelId, now });
        response = await raceAbort(model.complete({ messages: [...sent], maxTokens, signal: controller.signal, onProgress }), controller.signal);
      } catch (error) {
        if (controller.signal.aborted) return finishAborted(controller.signal.reason);
        const message = `model call failed: ${(error as Error)?.message ?? error}`;
        emit({ type: "error", iteration: iterations, message });
        return finish("error", { error: message });
      } finally {
        decision.reservation.finish();
      }
      const cost = priceCall(model.modelId, response.usage, tree.prices);
      ledger.record({ depth, model: model.modelId, usage: response.usage, costUsd: cost.costUsd, priced: cost.priced, estimated: response.usageEstimated === true });
      // Reasoning never runs: blocks are read from the reply without it. The trace has the whole reply; the history a copy short enough to re-send.
      const turn = readTurn(response, { keepReasoning, maxTokens, parsesAsJs: parsesAsJavaScript });
      emit({ type: "model_call", iteration: iterations, model: response.model || model.modelId, messages: messages.length, promptTokens: response.usage.promptTokens, completionTokens: response.usage.completionTokens, usageEstimated: response.usageEstimated === true, durationMs: Math.round(now() - callStarted), finishReason: response.rawFinishReason ?? response.finishReason, text: response.text, ...(turn.reasoning !== undefined ? { reasoning: turn.reasoning } : {}), ...(response.toolCalls ? { toolCalls: response.toolCalls } : {}), costUsd: cost.costUsd, priced: cost.priced });
      messages.push({ role: "assistant", content: turn.historyText });
      if (turn.withoutCode) {
        const { nudge, text, why } = turn.withoutCode;
        if (nudge && nudges >= maxNudges) {
          const message = `the model wrote no runnable code in ${nudges + 1} replies in a row (the last one: ${nudge.found})`;
          emit({ type: "error", iteration: iterations, message });
          return finish("no_code", { error: message });
        }
        if (nudge) nudges++;
        emit({ type: "feedback", iteration: iterations, text });
        messages.push({ role: "user", content: text });
        history?.record(emptyTurnRecord(iterations, why));
        continue;
      }
      nudges = 0;

      const reports: BlockReport[] = [];
      for (const [index, block] of turn.run.entries()) {
        if (controller.signal.aborted) return finishAborted(controller.signal.reason);
        emit({ type: "code_block", iteration: iterations, index, language: block.language, code: block.code, unclosed: block.unclosed });
        const report = await runBlock(index, block.code, block.unclosed);
        // Sub-calls the block left running get a short grace, then end.
        pending.endBlock();
        reports.push(report);
        if (report.result?.final) {
          const answer = report.result.final.value as JsonValue;
          emit({ type: "final", iteration: iterations, answer });
          return finish("final", { answer });
        }
      }
      const notes: string[] = [...turn.notes];
      const exhausted = tree.tracker.exhausted;
      if (exhausted) {
        // A sub-call was refused: children stop here; the root answers in one last turn.
        reportBudget(exhausted);
        if (depth > 0 || lastTurn === "taken") {
          emit({ type: "feedback", iteration: iterations, text: formatFeedback(reports, []) });
          return finish("budget_exceeded");
        }
        lastTurn = "pending";
        notes.push(renderPrompt(loadPrompt("final-turn"), { reason: exhausted.message }));
      } else if (iterations === maxIterations - 1) notes.push(renderPrompt(loadPrompt("final-turn"), { reason: `You have used ${iterations} of ${maxIterations} turns.` }));
      const feedback = formatFeedback(reports, notes);
      emit({ type: "feedback", iteration: iterations, text: feedback });
      messages.push({ role: "user", content: feedback });
      history?.record(turnRecord(iterations, reports));
    }
    return finish("max_iterations", { error: `no FINAL answer after ${maxIterations} iterations` });
  } catch (error) {
    if (controller.signal.aborted) return finishAborted(controller.signal.reason);
    const message = (error as Error)?.message ?? String(error);
    emit({ type: "error", iteration: iterations, message });
    return finish("error", { error: message });
  } finally {
    clearTimeout(timer);
    // A long-lived caller signal (one per process, say) must not collect a listener per session.
    signal?.removeEventListener("abort", onCallerAbort);
    // Sub-calls the guest started without awaiting them (an llm_query, a whole rlm_query child) end with the session.
    if (!controller.signal.aborted) controller.abort(new SessionEnded());
    pending.dispose();
    await sandbox?.dispose();
    if (ownsNav) await nav?.close().catch(() => undefined);
  }

  function finishAborted(reason: unknown): SessionResult {
    if (reason instanceof SessionTimeout) return finish("timeout", { error: reason.message });
    const message = `session cancelled${reason instanceof Error ? `: ${reason.message}` : ""}`;
    emit({ type: "error", iteration: iterations, message });
    return finish("error", { error: message });
  }

  // A ts block is parsed to see whether it is JavaScript; the interceptor reuses that tree.
  function parsesAsJavaScript(code: string): boolean {
    try {
      parsedBlocks.set(code, parseGuest(code));
      return true;
    } catch {
      return false;
    }
  }

  async function runBlock(index: number, code: string, unclosed: boolean): Promise<BlockReport> {
    const program = parsedBlocks.get(code);
    parsedBlocks.delete(code);
    const intercepted = interceptBlock(code, toolNames, program);
    if (!intercepted.ok) {
      emit({ type: "intercept_rejected", iteration: iterations, index, problems: intercepted.problems });
      return { index, code, unclosed, problems: intercepted.problems, toolCalls: [] };
    }
    const names: string[] = [];
    const toolCalls: BlockReport["toolCalls"][number][] = [];
    for (const call of intercepted.calls) {
      const tool = toolMap.get(call.tool)!;
      const callStarted = now();
      const argsPreview = clip(call.source, 120);
      // A failed call fails the block before anything of it runs.
      const fail = (message: string): BlockReport => {
        emit({ type: "tool_call", iteration: iterations, index, tool: call.tool, args: call.args, line: call.line, durationMs: Math.round(now() - callStarted), error: message });
        return { index, code, unclosed, toolCalls, toolError: message };
      };
      const checked = checkToolArguments(tool, call.args);
      if (!checked.ok) return fail(`${call.tool} at line ${call.line}: ${checked.message}`);
      const cut = await callTool(tool, checked.args, { sessionId, signal: controller.signal }, maxToolResultChars);
      if (!cut.ok) {
        // A handler that throws or returns something that is not JSON is the host's fault: the host gets the real message.
        emit({ type: "tool_call", iteration: iterations, index, tool: call.tool, args: call.args, line: call.line, durationMs: Math.round(now() - callStarted), error: cut.hostError, hostFault: true });
        return { index, code, unclosed, toolCalls, toolError: hostFaultFeedback(call.tool, call.line, argsPreview) };
      }
      const name = `${RESERVED_PREFIX}_${injectionTag}_${injected++}`;
      try {
        await sandbox!.setGlobal(name, cut.value);
      } catch {
        // Guest code can block new globals (Object.preventExtensions(globalThis), a read-only accessor): a fault of the block, not of the session.
        return fail(`${call.tool} at line ${call.line} ran, but its result could not be handed to the sandbox, because earlier code made the global object refuse new names (e.g. Object.preventExtensions(globalThis) or a read-only property). The block's own code did not run.`);
      }
      names.push(name);
      toolCalls.push({ source: argsPreview, target: call.target, chars: cut.chars, truncated: cut.truncated, limitChars: maxToolResultChars });
      emit({ type: "tool_call", iteration: iterations, index, tool: call.tool, args: call.args, line: call.line, injectedAs: name, resultChars: cut.chars, truncated: cut.truncated, durationMs: Math.round(now() - callStarted), result: cut.chars <= TRACE_RESULT_CHARS ? cut.value : undefined });
    }
    const rewritten = rewriteBlockMapped(code, intercepted.calls, names);
    // Waits on sub-calls are outside the block timeout, so the session's own signal bounds the block too.
    const result = boundResult(await raceAbort(sandbox!.execute(rewritten.code), controller.signal), rewritten);
    emit({ type: "sandbox_result", iteration: iterations, index, output: result.output, outputTruncated: result.outputTruncated, ...(result.error ? { error: result.error } : {}), final: result.final !== undefined, reset: result.reset, durationMs: Math.round(result.durationMs) });
    return { index, code, unclosed, toolCalls, result };
  }
}

function renderSystemPrompt(template: string | undefined, contextText: string, tools: readonly Tool[], maxOutputChars: number, extraSections: string, hasContext: boolean, hasRepo: boolean): string {
  const toolsSection = tools.length === 0 ? "" : renderPrompt(loadPrompt("tools"), {
    tool_list: tools.map((tool) => `- \`${toolSignature(tool)}\` — ${tool.description}${tool.example ? `\n  e.g. \`${tool.example}\`` : ""}`).join("\n"),
    // The form is shown with a tool this session has: the first one's own example, or its name with literal arguments.
    call_example: tools.find((tool) => tool.example)?.example ?? `const result = ${tools[0]!.name}("literal", { option: 1 })`,
  });
  return renderPrompt(template ?? loadPrompt("system"), {
    max_output_chars: maxOutputChars.toLocaleString("en-US"),
    context_description: contextText,
    tools_section: toolsSection,
    extra_sections: extraSections,
    // The worked example fits the input: a context to look at, a repository to navigate, or neither.
    example: loadPrompt(hasContext ? "example-context" : hasRepo ? "example-repo" : "example-plain").trimEnd(),
  });
}
