import { priceCall } from "../subcalls/price-table.ts";
import { rewriteToolCall, type RewriteToolCallResult } from "../toolcalls/rewrite-tool-call.ts";
import type { EngineSession } from "./engine-session.ts";
import type { Action } from "./protocol.ts";

/** The completion token limit of one rewrite: a call, not an essay. */
export const FALLBACK_REWRITE_MAX_TOKENS = 1_024;

/**
 * A call that cannot run (unreadable, an unknown tool, arguments the schema refuses)
 * sent once to the session's `fallbackModel` to be rewritten as a valid call
 * (`rewriteToolCall`). Undefined without a fallback model. Its usage is recorded in
 * the session's ledger like any model call's.
 */
export async function rewriteWithFallback(session: EngineSession, action: Extract<Action, { kind: "tool_call" | "invalid_tool_call" }>, error: string): Promise<RewriteToolCallResult | undefined> {
  const model = session.fallbackModel;
  if (!model) return undefined;
  const tools = [...session.tools.values()].filter((tool) => tool.name !== session.limits.finalAnswerTool);
  const name = action.name !== undefined && session.tools.has(action.name) ? action.name : undefined;
  const result = await rewriteToolCall({ model, tools, ...(name !== undefined ? { name } : {}), raw: action.raw, error, maxTokens: FALLBACK_REWRITE_MAX_TOKENS, signal: session.signal });
  if (result.response) {
    const { usage, usageEstimated } = result.response;
    const cost = priceCall(model.modelId, usage, session.tree.prices);
    session.ledger.record({ depth: session.depth, model: model.modelId, usage, costUsd: cost.costUsd, priced: cost.priced, estimated: usageEstimated === true });
  }
  return result;
}
