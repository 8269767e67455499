import { createHash } from "node:crypto";
import type { GuestValue, Sandbox } from "../../sandbox/index.ts";
import { estimateTokens } from "../model/estimate-tokens.ts";
import type { ModelClient, ModelResponse } from "../model/model-client.ts";
import type { SessionEventInput } from "../session/events.ts";
import type { SessionResult } from "../session/session-result.ts";
import type { JsonValue } from "../tools/json-schema.ts";
import { raceAbort, subcallSignal, SubcallTimeoutError } from "./abort-race.ts";
import type { BudgetHit, BudgetLimitName as SessionEventLimit, BudgetReport } from "./budget-tracker.ts";
import type { CallTree } from "./call-tree.ts";
import { priceCall } from "./price-table.ts";
import type { UsageLedger } from "./usage-ledger.ts";

/** The guest functions a session with sub-calls gets. Tools with these names are rejected. */
export const SUBCALL_FUNCTION_NAMES = ["llm_query", "llm_query_batched", "rlm_query", "budget"] as const;

/** Replies larger than this are not copied into `subcall_end` events. */
const MAX_EVENT_RESPONSE_CHARS = 20_000;

/** Options the guest may pass to `llm_query` and `llm_query_batched`. */
export interface LlmQueryOptions {
  readonly maxTokens?: number;
  readonly temperature?: number;
}

/** What a child session is started with. */
export interface ChildSessionRequest {
  readonly question: string;
  readonly context: JsonValue | undefined;
  /** Aborts with the parent session, or at the sub-call time limit. */
  readonly signal: AbortSignal;
  /** The child's own `timeoutMs`. */
  readonly timeoutMs: number;
  /** The child's ledger (counts into the parent's). */
  readonly ledger: UsageLedger;
}

/** What the functions need from the session that exposes them. */
export interface SubcallContext {
  readonly tree: CallTree;
  /** The session's own ledger. */
  readonly ledger: UsageLedger;
  /** The session's depth (0 for the root); its sub-calls count at depth + 1. */
  readonly depth: number;
  /** Answers `llm_query` and writes child sessions' code. */
  readonly subModel: ModelClient;
  /** The session's signal: aborting it fails every sub-call in flight. */
  readonly signal: AbortSignal;
  /** The session's event emitter. */
  readonly emit: (event: SessionEventInput) => void;
  /** The session's current iteration, for events. */
  readonly iteration: () => number;
  readonly now: () => number;
  /** Called when a call is refused or cut by a budget (the session reports it once). */
  readonly reportBudget: (hit: BudgetHit) => void;
  /** Runs a child session (given by `runSession`, which owns the loop). */
  readonly startChild: (request: ChildSessionRequest) => Promise<SessionResult>;
}

/** Host implementations of the sub-call guest functions. None rejects for a failed call: failures come back as error strings. */
export interface SubcallFunctions {
  llm_query(prompt: GuestValue, options?: GuestValue): Promise<string>;
  llm_query_batched(prompts: GuestValue, options?: GuestValue): Promise<string[]>;
  rlm_query(question: GuestValue, value?: GuestValue): Promise<JsonValue>;
  budget(): Promise<BudgetReport>;
}

/**
 * Builds `llm_query`, `llm_query_batched`, `rlm_query` and `budget` for one session.
 * Every model call is checked against the tree's budget first, bounded by the
 * tree's concurrency limit (for `llm_query`), cut at the sub-call timeout (or the
 * wall budget), counted in the ledger at depth + 1 and reported as
 * `subcall_start` / `subcall_end` events. Only wrong argument types throw (they are
 * bugs in the guest's code); failed, timed-out and refused calls return a string
 * starting with `[llm_query error`, `[llm_query refused` or `[rlm_query error`.
 */
export function createSubcallFunctions(context: SubcallContext): SubcallFunctions {
  const { tree, ledger, depth, subModel, signal, emit, iteration, now, startChild, reportBudget: emitBudgetHit } = context;
  const callDepth = depth + 1;

  const timeoutFor = (): { timeoutMs: number; wallBudget: boolean } => {
    const wall = tree.tracker.remainingWallMs();
    return wall !== undefined && wall < tree.subcallTimeoutMs ? { timeoutMs: Math.max(1, wall), wallBudget: true } : { timeoutMs: tree.subcallTimeoutMs, wallBudget: false };
  };

  async function callLlm(prompt: string, options: LlmQueryOptions, extra: { batchIndex?: number; degraded?: boolean }): Promise<string> {
    const subcallId = tree.nextSubcallId();
    const started = now();
    const base = { iteration: iteration(), subcallId, kind: "llm" as const, model: subModel.modelId, callDepth, ...(extra.batchIndex !== undefined ? { batchIndex: extra.batchIndex } : {}) };
    emit({ type: "subcall_start", ...base, promptChars: prompt.length, promptSha256: promptDigest(prompt), ...(extra.degraded ? { degraded: true } : {}) });
    const end = (fields: { promptTokens?: number; completionTokens?: number; costUsd?: number; cached?: boolean; refused?: SessionEventLimit; error?: string; text?: string }): void => {
      emit({
        type: "subcall_end",
        ...base,
        promptTokens: fields.promptTokens ?? 0,
        completionTokens: fields.completionTokens ?? 0,
        costUsd: fields.costUsd ?? 0,
        durationMs: Math.round(now() - started),
        cached: fields.cached ?? false,
        ...(fields.refused ? { refused: fields.refused } : {}),
        ...(fields.error !== undefined ? { error: fields.error } : {}),
        ...(fields.text !== undefined ? { responseChars: fields.text.length, ...(fields.text.length <= MAX_EVENT_RESPONSE_CHARS ? { response: fields.text } : {}) } : {}),
      });
    };
    if (signal.aborted) {
      const error = "the session was stopped";
      end({ error });
      return `[llm_query error: ${error}]`;
    }
    const key = { model: subModel.modelId, prompt, options };
    const hit = tree.cache ? await tree.cache.get(key) : undefined;
    if (hit) {
      end({ cached: true, text: hit.text });
      return hit.text;
    }
    return tree.limiter.run(async () => {
      const decision = tree.tracker.reserve({ model: subModel.modelId, promptTokens: estimateTokens(prompt) });
      if (!decision.ok) {
        emitBudgetHit(decision.hit);
        end({ refused: decision.hit.limit, error: decision.hit.message });
        return `[llm_query refused: ${decision.hit.message}]`;
      }
      const { timeoutMs, wallBudget } = timeoutFor();
      const scoped = subcallSignal(signal, timeoutMs, wallBudget);
      let response: ModelResponse;
      try {
        response = await raceAbort(
          subModel.complete({
            messages: [{ role: "user", content: prompt }],
            signal: scoped.signal,
            ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
            ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
          }),
          scoped.signal,
        );
      } catch (error) {
        const reason = scoped.signal.aborted ? scoped.signal.reason : error;
        if (reason instanceof SubcallTimeoutError && reason.wallBudget) emitBudgetHit(tree.tracker.markExhausted("maxWallMs"));
        const message = reason instanceof SubcallTimeoutError ? reason.message : scoped.signal.aborted ? "the session was stopped" : String((reason as Error)?.message ?? reason);
        // A failed call still counts as a model call (its tokens are unknown, so 0).
        ledger.record({ depth: callDepth, model: subModel.modelId, usage: { promptTokens: 0, completionTokens: 0 }, costUsd: 0, priced: priceCall(subModel.modelId, { promptTokens: 0, completionTokens: 0 }, tree.prices).priced });
        end({ error: message });
        return `[llm_query error: ${message}]`;
      } finally {
        scoped.dispose();
        decision.reservation.finish();
      }
      const usage = response.usage;
      const cost = priceCall(subModel.modelId, usage, tree.prices);
      ledger.record({ depth: callDepth, model: subModel.modelId, usage, costUsd: cost.costUsd, priced: cost.priced, estimated: response.usageEstimated === true });
      if (tree.cache) await tree.cache.set(key, { model: subModel.modelId, text: response.text, usage });
      end({ promptTokens: usage.promptTokens, completionTokens: usage.completionTokens, costUsd: cost.costUsd, text: response.text });
      return response.text;
    });
  }


  return {
    async llm_query(prompt, options) {
      if (typeof prompt !== "string") throw new TypeError(`llm_query(prompt, options?): prompt must be a string, got ${describe(prompt)}.`);
      return callLlm(prompt, checkOptions("llm_query", options), {});
    },

    async llm_query_batched(prompts, options) {
      if (!Array.isArray(prompts)) throw new TypeError(`llm_query_batched(prompts, options?): prompts must be an array of strings, got ${describe(prompts)}.`);
      prompts.forEach((prompt, index) => {
        if (typeof prompt !== "string") throw new TypeError(`llm_query_batched(prompts, options?): prompts[${index}] must be a string, got ${describe(prompt)}.`);
      });
      const checked = checkOptions("llm_query_batched", options);
      return Promise.all((prompts as string[]).map((prompt, batchIndex) => callLlm(prompt, checked, { batchIndex })));
    },

    async rlm_query(question, value) {
      if (typeof question !== "string" || question.trim() === "") throw new TypeError(`rlm_query(question, value?): question must be a non-empty string, got ${describe(question)}.`);
      if (callDepth > tree.tracker.maxDepth) {
        const prompt = value === undefined || value === null ? question : `${question}\n\n${typeof value === "string" ? value : JSON.stringify(value)}`;
        return callLlm(prompt, {}, { degraded: true });
      }
      const subcallId = tree.nextSubcallId();
      const started = now();
      const base = { iteration: iteration(), subcallId, kind: "rlm" as const, model: subModel.modelId, callDepth };
      emit({ type: "subcall_start", ...base, promptChars: question.length });
      const childLedger = ledger.child();
      const { timeoutMs, wallBudget } = timeoutFor();
      const scoped = subcallSignal(signal, timeoutMs + 1_000, wallBudget);
      let result: SessionResult | undefined;
      let failure: string | undefined;
      try {
        result = await startChild({ question, context: value === undefined ? undefined : (value as JsonValue), signal: scoped.signal, timeoutMs, ledger: childLedger });
      } catch (error) {
        failure = String((error as Error)?.message ?? error);
      } finally {
        scoped.dispose();
      }
      const totals = childLedger.totals;
      const answered = result !== undefined && result.answer !== undefined;
      if (!answered) failure ??= `the child session ended with status '${result?.status}'${result?.error ? `: ${result.error}` : ""}`;
      const answerJson = answered ? JSON.stringify(result!.answer) : undefined;
      emit({
        type: "subcall_end",
        ...base,
        promptTokens: totals.promptTokens,
        completionTokens: totals.completionTokens,
        costUsd: totals.costUsd,
        durationMs: Math.round(now() - started),
        cached: false,
        ...(result?.budget ? { refused: result.budget.limit } : {}),
        ...(failure !== undefined ? { error: failure } : {}),
        ...(answerJson !== undefined ? { responseChars: answerJson.length, ...(answerJson.length <= MAX_EVENT_RESPONSE_CHARS ? { response: result!.answer } : {}) } : {}),
        ...(result ? { childSessionId: result.sessionId, childStatus: result.status } : {}),
      });
      if (result?.budget) emitBudgetHit(result.budget);
      return answered ? result!.answer! : `[rlm_query error: ${failure}]`;
    },

    async budget() {
      return tree.tracker.report(depth);
    },
  };
}



/**
 * Exposes the functions in a sandbox. Like every host function they return promises
 * in the guest (`await budget()` too); their wait is not counted against the block
 * timeout (the session bounds it).
 */
export async function exposeSubcallFunctions(sandbox: Sandbox, functions: SubcallFunctions): Promise<void> {
  await sandbox.exposeFunction("llm_query", (...args) => functions.llm_query(args[0], args[1]));
  await sandbox.exposeFunction("llm_query_batched", (...args) => functions.llm_query_batched(args[0], args[1]));
  await sandbox.exposeFunction("rlm_query", (...args) => functions.rlm_query(args[0], args[1]));
  await sandbox.exposeFunction("budget", () => functions.budget() as unknown as Promise<GuestValue>);
}

function checkOptions(name: string, options: GuestValue | undefined): LlmQueryOptions {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object" || Array.isArray(options)) throw new TypeError(`${name}: options must be an object like { maxTokens: 500, temperature: 0 }, got ${describe(options)}.`);
  const result: { maxTokens?: number; temperature?: number } = {};
  for (const [key, value] of Object.entries(options)) {
    if (key === "maxTokens") {
      if (typeof value !== "number" || !Number.isInteger(value) || value < 1) throw new TypeError(`${name}: options.maxTokens must be a positive integer, got ${describe(value)}.`);
      result.maxTokens = value;
    } else if (key === "temperature") {
      if (typeof value !== "number" || value < 0) throw new TypeError(`${name}: options.temperature must be a non-negative number, got ${describe(value)}.`);
      result.temperature = value;
    } else {
      throw new TypeError(`${name}: unknown option '${key}'; the options are maxTokens and temperature.`);
    }
  }
  return result;
}

function describe(value: GuestValue | undefined): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? `a string` : typeof value;
}

/** The digest `subcall_start` records for an `llm_query` prompt, so a replay can match replies to prompts. */
export function promptDigest(prompt: string): string {
  return createHash("sha256").update(prompt).digest("hex");
}
