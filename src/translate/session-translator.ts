import { estimateTokens } from "../model/estimate-tokens.ts";
import type { ModelClient } from "../model/model-client.ts";
import { priceCall } from "../subcalls/price-table.ts";
import type { SubcallContext } from "../subcalls/subcall-functions.ts";
import type { TranslationRequest } from "./nl-tool.ts";
import { translateToolCall, type TranslateResult } from "./translate-tool-call.ts";

/** What a session lends its translator: what it lends its sub-calls (translator calls count at depth + 1, as they do), and the translator model. */
export interface SessionTranslatorContext extends Pick<SubcallContext, "tree" | "ledger" | "depth" | "emit" | "iteration" | "now" | "reportBudget"> {
  readonly model: ModelClient;
}

/**
 * A session's translator: each call is checked against the call tree's budget
 * first (refused → a failed translation saying why), counted in the ledger at the
 * sub-call depth, and recorded as a `translation` event.
 */
export function sessionTranslator({ model, tree, ledger, depth, emit, iteration, now, reportBudget }: SessionTranslatorContext): (request: TranslationRequest) => Promise<TranslateResult> {
  return async (request) => {
    // An empty description is refused without a model call.
    if (request.description.trim() === "") return translateToolCall({ ...request, model });
    const started = now();
    const base = { iteration: iteration(), tool: request.tool.name, description: request.description, model: model.modelId };
    const decision = tree.tracker.reserve({ model: model.modelId, promptTokens: estimateTokens(JSON.stringify(request.tool.parameters)) + estimateTokens(request.description) });
    if (!decision.ok) {
      reportBudget(decision.hit);
      const error = `${request.tool.name}: the translator was not called: ${decision.hit.message}`;
      emit({ type: "translation", ...base, status: "failed", error, promptTokens: 0, completionTokens: 0, costUsd: 0, durationMs: 0 });
      return { status: "failed", error };
    }
    let result: TranslateResult;
    try {
      result = await translateToolCall({ ...request, model });
    } finally {
      decision.reservation.finish();
    }
    const usage = result.usage ?? { promptTokens: 0, completionTokens: 0 };
    const cost = priceCall(model.modelId, usage, tree.prices);
    // A failed call still counts as a model call (its tokens unknown, so 0).
    ledger.record({ depth: depth + 1, model: model.modelId, usage, costUsd: cost.costUsd, priced: cost.priced, estimated: result.usageEstimated === true });
    emit({
      type: "translation",
      ...base,
      status: result.status,
      ...(result.status === "translated" ? { calls: result.calls.map((call) => call.summary), skipped: result.skipped.length } : {}),
      ...(result.status === "clarify" ? { question: result.question } : {}),
      ...(result.status === "failed" ? { error: result.error } : {}),
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      costUsd: cost.costUsd,
      durationMs: Math.round(now() - started),
    });
    return result;
  };
}
