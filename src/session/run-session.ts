import { randomBytes, randomUUID } from "node:crypto";
import { DEFAULT_MEMORY_LIMIT_MB } from "../../sandbox/index.ts";
import { sessionSignal } from "../core/abort.ts";
import type { SessionEvent, SessionEventInput } from "../core/events.ts";
import type { SessionResult } from "../core/session-result.ts";
import type { BudgetHit } from "../core/usage.ts";
import { InvalidOptionsError } from "../core/errors/invalid-options-error.ts";
import type { EngineSession } from "../engine/engine-session.ts";
import { finishAborted, finishSession } from "../engine/finish-session.ts";
import { HistoryBudget, turnMaxTokens } from "../engine/history-budget.ts";
import { runTurns } from "../engine/run-turns.ts";
import { SessionHooks, validateHooks } from "../engine/session-hooks.ts";
import { sessionSandbox } from "../engine/session-sandbox.ts";
import { TurnRecorder } from "../engine/turn-ledger.ts";
import { createNavTools } from "../nav/index.ts";
import { loadPrompt, renderPrompt } from "../prompts/prompts.ts";
import { resolveProtocol } from "../protocols/resolve-protocol.ts";
import type { CallTree } from "../subcalls/call-tree.ts";
import { createSubcallFunctions, exposeSubcallFunctions } from "../subcalls/subcall-functions.ts";
import { PendingSubcalls } from "../subcalls/pending-subcalls.ts";
import { capEvent } from "./cap-event.ts";
import { describeContext } from "./describe-context.ts";
import { openCallTree } from "./open-call-tree.ts";
import { promptSetup } from "./prompt-setup.ts";
import { resolveSandboxFactory } from "./sandbox-backend.ts";
import { DEFAULT_MAX_ITERATIONS, DEFAULT_MAX_NUDGES, DEFAULT_MAX_TOKENS } from "./session-defaults.ts";
import { DEFAULT_MAX_CORRECTIONS, DEFAULT_MAX_TOOL_RESULT_CHARS, type SessionOptions } from "./session-options.ts";
import { sessionTools } from "./session-tools.ts";
import { sessionValidation } from "./session-validation.ts";
import { BACKGROUND_TOOL_NAMES } from "../background/background-tools.ts";
import { sessionBackground } from "../background/session-background.ts";
import type { ChildSessionRequest } from "../subcalls/subcall-functions.ts";
import { presentNlTools } from "../translate/present-nl-tools.ts";
import { sessionTranslator } from "../translate/session-translator.ts";
import { isModelClient, validateSessionOptions } from "./validate-options.ts";

export { DEFAULT_MAX_CORRECTIONS, DEFAULT_MAX_ITERATIONS, DEFAULT_MAX_NUDGES, DEFAULT_MAX_TOKENS, DEFAULT_MAX_TOOL_RESULT_CHARS, type SessionOptions };

/**
 * Runs one RLM session: the model acts through its protocol (by default it writes
 * JavaScript blocks: tool calls in them are intercepted and run in the host, the rest
 * runs in an isolated-vm sandbox), and the session ends when an answer is accepted
 * (`FINAL(answer)` in `code`), or at a limit. Guest faults never throw: they are fed
 * back to the model. The returned promise rejects only for invalid options.
 *
 * This function wires the pieces (options, tools, call tree, sandbox, hooks,
 * protocol) and hands them to the turn loop (`runTurns`, `src/engine/`).
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
  const { question, context, model, tools = [], repo, maxIterations = DEFAULT_MAX_ITERATIONS, timeoutMs, sandbox: sandboxOptions = {}, maxToolResultChars = DEFAULT_MAX_TOOL_RESULT_CHARS, systemPromptTemplate, keepReasoning = false, maxNudges = DEFAULT_MAX_NUDGES, maxTokens: requestedMaxTokens = DEFAULT_MAX_TOKENS, contextWindow = options.model?.contextWindow, subModel = options.model, subcalls = true, maxCorrections = DEFAULT_MAX_CORRECTIONS, finalAnswerTool, _internal = {} } = options;
  // Invalid options reject here, before anything starts.
  validateSessionOptions({ question, model, maxIterations, timeoutMs, maxToolResultChars, maxNudges, maxTokens: requestedMaxTokens, contextWindow, systemPromptTemplate, maxCorrections, hasTools: tools.length > 0 || options.backgroundSessions === true, hasExtraSections: repo !== undefined || subcalls !== false });
  const protocol = resolveProtocol(options.protocol);
  const hookList = validateHooks(options.hooks);
  const validation = sessionValidation(options.validation, options.subModel);
  const sandboxFactory = resolveSandboxFactory(options.sandboxFactory, sandboxOptions.backend);
  if (options.fallbackModel !== undefined && !isModelClient(options.fallbackModel)) throw new InvalidOptionsError({ option: "fallbackModel", message: "runSession: fallbackModel must be a ModelClient (an object with complete(request))." });
  if (subcalls && !isModelClient(subModel)) throw new InvalidOptionsError({ option: "subModel", message: "runSession: subModel must be a ModelClient (an object with complete(request))." });
  if (options.translatorModel !== undefined && !isModelClient(options.translatorModel)) throw new InvalidOptionsError({ option: "translatorModel", message: "runSession: translatorModel must be a ModelClient (an object with complete(request))." });
  // spawn_sub_session / await_sub_sessions (the root only), and tools offered by description (their calls translated by `translate`, below).
  const background = options.backgroundSessions === true && _internal.parent === undefined ? sessionBackground() : undefined;
  const shownTools = presentNlTools([...tools, ...(background?.tools ?? [])], { nlTools: options.nlTools, optIn: new Set(BACKGROUND_TOOL_NAMES), strict: _internal.parent === undefined, translate: (request) => translate(request) });
  // A path that is not a directory rejects here, before anything starts.
  const nav = typeof repo === "string" ? await createNavTools(repo, options.navOptions).catch(async (error: unknown) => { await validation?.close(); throw error; }) : repo;
  const toolMap = sessionTools({ nav, tools: shownTools, subcalls, finalAnswerTool });
  const navToolNames = new Set(nav?.tools.map((tool) => tool.name) ?? []);

  const parent = _internal.parent;
  const depth = parent?.depth ?? 0;
  const now = _internal.now ?? (() => performance.now());
  const sessionId = (_internal.generateId ?? randomUUID)();
  const started = now();
  // A child session shares its root's call tree: budgets, limiter, cache, trace and onEvent.
  const tree: CallTree = parent?.tree ?? openCallTree({ ...options, tracePath: options.tracePath, onEvent: options.onEvent, now, generateId: _internal.generateId });
  const turn = new TurnRecorder();
  const emit = (event: SessionEventInput): void => {
    turn.observe(event);
    tree.sink(capEvent({ ...event, sessionId, time: new Date().toISOString(), elapsedMs: Math.round(now() - started), depth, ...(parent ? { parentSessionId: parent.parentSessionId } : {}) } as SessionEvent));
  };
  const link = sessionSignal(options.signal, timeoutMs);
  const ledger = parent?.ledger ?? tree.rootLedger;
  const pending = new PendingSubcalls(tree.limits, link.signal);
  let budgetReported = false;
  const reportBudget = (hit: BudgetHit): void => {
    if (budgetReported) return;
    budgetReported = true;
    emit({ type: "budget_exceeded", iteration: session.iterations, limit: hit.limit, limitValue: hit.limitValue, used: hit.used, message: hit.message });
  };
  const translate = sessionTranslator({ model: options.translatorModel ?? subModel, tree, ledger, depth, emit, now, reportBudget, iteration: () => session.iterations });
  const childSandboxMemoryMb = sandboxOptions.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB;
  // A child session: the same tools, repository, limits and protocol, its own question, input and signal.
  const startChild = (request: ChildSessionRequest, only: Partial<SessionOptions> = {}): Promise<SessionResult> =>
    runSession({ ...options, question: request.question, context: request.context, model: subModel, subModel, ...(nav ? { repo: nav } : {}), timeoutMs: request.timeoutMs, sandboxFactory, signal: request.signal, protocol, contextWindow: undefined, tracePath: undefined, onEvent: undefined, ...only, _internal: { now, ...(_internal.generateId ? { generateId: _internal.generateId } : {}), parent: { tree, ledger: request.ledger, depth: depth + 1, parentSessionId: sessionId } } });
  // A background task's child gets the objective only ("minimal") or this session's tools and repository too ("full").
  background?.attach({ tree, ledger, depth, signal: link.signal, emit, childSandboxMemoryMb, iteration: () => session.iterations, runChild: (request) => startChild(request, request.systemPromptMode === "full" ? { backgroundSessions: false } : { backgroundSessions: false, tools: [], repo: undefined, finalAnswerTool: undefined }) });
  const sandbox = sessionSandbox({
    factory: sandboxFactory,
    options: sandboxOptions,
    signal: link.signal,
    context,
    tools: toolMap.values(),
    ...(subcalls
      ? {
          expose: (opened) =>
            exposeSubcallFunctions(
              opened,
              createSubcallFunctions({
                tree, ledger, depth, subModel, pending, emit, now, reportBudget, childSandboxMemoryMb,
                iteration: () => session.iterations,
                startChild: (request) => startChild(request),
              }),
            ),
        }
      : {}),
  });
  const maxTokens = turnMaxTokens(requestedMaxTokens, contextWindow);
  const session: EngineSession = {
    sessionId, depth, question, model, ...(options.fallbackModel ? { fallbackModel: options.fallbackModel } : {}), protocol, setup: undefined, requestFields: {}, tree, ledger, tools: toolMap, toolNames: new Set(toolMap.keys()), nav, pending, now, emit, reportBudget, started, turn,
    limits: { maxIterations, maxNudges, maxCorrections, maxTokens, keepReasoning, maxToolResultChars, ...(finalAnswerTool !== undefined ? { finalAnswerTool } : {}) },
    hooks: new SessionHooks([...hookList, ...(validation?.hooks(emit) ?? [])], emit),
    sandbox: sandbox.get,
    signal: link.signal,
    injectionTag: `${sessionId.replace(/[^a-zA-Z0-9]/g, "").slice(0, 8)}${randomBytes(3).toString("hex")}`,
    messages: [],
    history: contextWindow !== undefined ? new HistoryBudget(contextWindow, maxTokens) : undefined,
    recentReplies: [],
    iterations: 0, injected: 0, nudges: 0, corrections: 0, lastTurn: "none",
  };

  const contextText = describeContext(context, { repo: nav !== undefined, tools: toolMap.size > navToolNames.size });
  emit({ type: "session_start", question, model: model.modelId, context: contextText, tools: [...toolMap.keys()], maxIterations });
  validation?.reportProblems(emit);
  try {
    // The code protocol runs every reply in the sandbox: it is opened before the first turn (other protocols open it if an action needs it).
    if (protocol.name === "code") await sandbox.get();
    const setup = await promptSetup({ tools: toolMap, navToolNames, contextDescription: contextText, context, nav, subcalls, subModel, tree, depth, maxOutputChars: sandboxOptions.maxOutputChars, template: systemPromptTemplate, finalAnswerTool });
    session.setup = setup;
    session.requestFields = protocol.requestFields?.(setup) ?? {};
    session.messages.push({ role: "system", content: protocol.systemPrompt(setup) }, { role: "user", content: renderPrompt(loadPrompt("question"), { question }) });
    return await runTurns(session);
  } catch (error) {
    if (link.signal.aborted) return finishAborted(session, link.signal.reason);
    const message = (error as Error)?.message ?? String(error);
    emit({ type: "error", iteration: session.iterations, message });
    return finishSession(session, "error", { error: message });
  } finally {
    // Sub-calls the guest started without awaiting them (an llm_query, a whole rlm_query child) end with the session.
    link.dispose();
    pending.dispose();
    // Background tasks were stopped with the session: wait for their children to end.
    await background?.settled();
    await sandbox.dispose();
    await validation?.close();
    if (typeof repo === "string") await nav?.close().catch(() => undefined);
  }
}
