import { createHash } from "node:crypto";
import { redactHostPaths, type GuestValue, type Sandbox } from "../../sandbox/index.ts";
import { estimateTokens } from "../model/estimate-tokens.ts";
import type { ModelClient, ModelResponse } from "../model/model-client.ts";
import type { SessionEventInput } from "../core/events.ts";
import type { ModelProgress } from "../model/model-progress.ts";
import { relayModelProgress } from "../model/model-progress-events.ts";
import type { SessionResult } from "../core/session-result.ts";
import type { JsonValue } from "../tools/json-schema.ts";
import { raceAbort } from "../core/abort.ts";
import { subcallSignal, SubcallTimeoutError } from "./abort-race.ts";
import type { BudgetHit, BudgetLimitName as SessionEventLimit, BudgetReport } from "./budget-tracker.ts";
import type { CallTree } from "./call-tree.ts";
import { priceCall } from "./price-table.ts";
import type { UsageLedger } from "./usage-ledger.ts";
import { checkOptions, describe, type LlmQueryOptions } from "./subcall-arguments.ts";
import { BlockEndedError, type PendingSubcalls } from "./pending-subcalls.ts";

export type { LlmQueryOptions };

/** The guest functions a session with sub-calls gets. Tools with these names are rejected. */
export const SUBCALL_FUNCTION_NAMES = ["llm_query", "llm_query_batched", "rlm_query", "budget"] as const;

/** Replies larger than this are not copied into `subcall_end` events. */
const MAX_EVENT_RESPONSE_CHARS = 20_000;

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
  /** The session's pending sub-calls: admits each call (or refuses it) and gives it the signal it runs under (aborting the session's signal fails every one). */
  readonly pending: PendingSubcalls;
  /** Memory limit of a child session's sandbox in MB (its input is claimed on top). */
  readonly childSandboxMemoryMb: number;
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
  const { tree, ledger, depth, subModel, pending, childSandboxMemoryMb, emit, iteration, now, startChild, reportBudget: emitBudgetHit } = context;
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
    if (prompt.length > tree.limits.maxPromptChars) {
      const error = `the prompt has ${prompt.length.toLocaleString("en-US")} characters, over the limit of ${tree.limits.maxPromptChars.toLocaleString("en-US")} for one sub-call; send smaller pieces`;
      end({ error });
      return `[llm_query refused: ${error}]`;
    }
    const admission = pending.admit(prompt.length);
    if (!admission.ok) {
      end({ error: admission.message });
      return `[llm_query refused: ${admission.message}]`;
    }
    try {
      // The model call's requests, retries and streamed output, as events tagged with this sub-call.
      const onProgress = relayModelProgress({ emit, iteration: base.iteration, model: subModel.modelId, now, subcallId });
      return await runLlm(prompt, options, admission, end, onProgress);
    } finally {
      admission.release();
    }
  }

  async function runLlm(prompt: string, options: LlmQueryOptions, { signal, queueSignal }: { signal: AbortSignal; queueSignal: AbortSignal }, end: (fields: { promptTokens?: number; completionTokens?: number; costUsd?: number; cached?: boolean; refused?: SessionEventLimit; error?: string; text?: string }) => void, onProgress: (progress: ModelProgress) => void): Promise<string> {
    const stopped = (reason: unknown): string => {
      const error = stopMessage(reason);
      end({ error });
      return `[llm_query error: ${error}]`;
    };
    if (signal.aborted) return stopped(signal.reason);
    const key = { model: subModel.modelId, prompt, options };
    const hit = tree.cache ? await tree.cache.get(key) : undefined;
    if (hit) {
      end({ cached: true, text: hit.text });
      return hit.text;
    }
    // A call still waiting for a slot when its block or session ends leaves the queue without a model call.
    return tree.limiter.run(async () => {
      if (queueSignal.aborted) return stopped(queueSignal.reason);
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
            onProgress,
            ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
            ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
          }),
          scoped.signal,
        );
      } catch (error) {
        const reason = scoped.signal.aborted ? scoped.signal.reason : error;
        if (reason instanceof SubcallTimeoutError && reason.wallBudget) emitBudgetHit(tree.tracker.markExhausted("maxWallMs"));
        const message = scoped.signal.aborted ? stopMessage(reason) : redactHostPaths(String((reason as Error)?.message ?? reason));
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
    }, queueSignal).catch((reason: unknown) => {
      if (queueSignal.aborted) return stopped(reason);
      throw reason;
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
      const valueChars = value === undefined ? 0 : JSON.stringify(value).length;
      const refusal = question.length > tree.limits.maxPromptChars ? `the question has ${question.length.toLocaleString("en-US")} characters, over the limit of ${tree.limits.maxPromptChars.toLocaleString("en-US")}; pass the text as the value instead` : undefined;
      const admission = refusal === undefined ? pending.admit(question.length + valueChars) : ({ ok: false, message: refusal } as const);
      const childLedger = ledger.child();
      let result: SessionResult | undefined;
      let failure: string | undefined;
      let refused: string | undefined;
      if (!admission.ok) refused = admission.message;
      else {
        try {
          // Each child claims its sandbox's memory limit plus about two copies of its input.
          const gate = await tree.childGate(callDepth).enter(childSandboxMemoryMb + Math.ceil((2 * valueChars) / 1_048_576), admission.queueSignal);
          if (!gate.ok) {
            if (admission.queueSignal.aborted) failure = stopMessage(admission.queueSignal.reason);
            else refused = gate.message;
          } else {
            const { timeoutMs, wallBudget } = timeoutFor();
            const scoped = subcallSignal(admission.signal, timeoutMs + 1_000, wallBudget);
            try {
              result = await startChild({ question, context: value === undefined ? undefined : (value as JsonValue), signal: scoped.signal, timeoutMs, ledger: childLedger });
            } catch (error) {
              failure = redactHostPaths(String((error as Error)?.message ?? error));
            } finally {
              scoped.dispose();
              gate.release();
            }
          }
        } finally {
          admission.release();
        }
      }
      const totals = childLedger.totals;
      const answered = result !== undefined && result.answer !== undefined;
      if (!answered && refused === undefined) failure ??= `the child session ended with status '${result?.status}'${result?.error ? `: ${redactHostPaths(result.error)}` : ""}`;
      failure ??= refused;
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
      if (refused !== undefined) return `[rlm_query refused: ${refused}]`;
      return answered ? result!.answer! : `[rlm_query error: ${failure}]`;
    },

    async budget() {
      return tree.tracker.report(depth);
    },
  };
}



/** What a sub-call stopped by its signal tells the guest. */
function stopMessage(reason: unknown): string {
  return reason instanceof SubcallTimeoutError || reason instanceof BlockEndedError ? reason.message : "the session was stopped";
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

/** The digest `subcall_start` records for an `llm_query` prompt, so a replay can match replies to prompts. */
export function promptDigest(prompt: string): string {
  return createHash("sha256").update(prompt).digest("hex");
}
