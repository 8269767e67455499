import { raceAbort } from "../core/abort.ts";
import type { SessionResult } from "../core/session-result.ts";
import type { ChatMessage, ModelResponse } from "../model/model-client.ts";
import { relayModelProgress } from "../model/model-progress-events.ts";
import type { BudgetReservation } from "../subcalls/budget-tracker.ts";
import { priceCall } from "../subcalls/price-table.ts";
import type { EngineSession } from "./engine-session.ts";
import { finishAborted, finishSession } from "./finish-session.ts";
import type { Protocol, ReadReply } from "./protocol.ts";

/** Replies the hooks' `recentReplies` keeps. */
const RECENT_REPLIES = 8;

/**
 * One model call: `sent` goes out with the protocol's request fields and the turn's
 * token limit (bounded by the session's signal; a failure after the client's retries
 * ends the session with status `error`), its usage is priced and recorded, and the
 * protocol reads the reply. The `model_call` event keeps the whole reply; the history
 * gets the protocol's copy. A failure the protocol degrades on (`Protocol.degradeOn`)
 * switches the session to the protocol it names (`protocol_degraded`) and sends the
 * turn again.
 */
export async function askModel(session: EngineSession, sentAtFirst: readonly ChatMessage[], reservation: BudgetReservation): Promise<{ readonly response: ModelResponse; readonly reply: ReadReply } | { readonly result: SessionResult }> {
  const { model, signal, now, emit, limits } = session;
  const iteration = session.iterations;
  const callStarted = now();
  let sent = sentAtFirst;
  let response: ModelResponse;
  try {
    for (;;) {
      try {
        const onProgress = relayModelProgress({ emit, iteration, model: model.modelId, now });
        response = await raceAbort(model.complete({ ...session.requestFields, messages: [...sent], maxTokens: limits.maxTokens, signal, onProgress }), signal);
        break;
      } catch (error) {
        if (signal.aborted) return { result: finishAborted(session, signal.reason) };
        // A protocol the server cannot serve (native tools refused) may hand over to another and the turn is sent again.
        const next = session.protocol.degradeOn?.(error);
        if (next && session.setup) {
          sent = degrade(session, next, error, sent);
          continue;
        }
        const message = `model call failed: ${(error as Error)?.message ?? error}`;
        emit({ type: "error", iteration, message });
        return { result: finishSession(session, "error", { error: message }) };
      }
    }
  } finally {
    reservation.finish();
  }
  const cost = priceCall(model.modelId, response.usage, session.tree.prices);
  session.ledger.record({ depth: session.depth, model: model.modelId, usage: response.usage, costUsd: cost.costUsd, priced: cost.priced, estimated: response.usageEstimated === true });
  // Reasoning never runs: actions are read from the reply without it. The trace has the whole reply; the history a copy short enough to re-send.
  const reply = session.protocol.readReply({ response, keepReasoning: limits.keepReasoning, maxTokens: limits.maxTokens, toolNames: session.toolNames, ...(limits.finalAnswerTool !== undefined ? { finalAnswerTool: limits.finalAnswerTool } : {}) });
  emit({ type: "model_call", iteration, model: response.model || model.modelId, messages: session.messages.length, promptTokens: response.usage.promptTokens, completionTokens: response.usage.completionTokens, usageEstimated: response.usageEstimated === true, durationMs: Math.round(now() - callStarted), finishReason: response.rawFinishReason ?? response.finishReason, text: response.text, ...(reply.reasoning !== undefined ? { reasoning: reply.reasoning } : {}), ...(response.toolCalls ? { toolCalls: response.toolCalls } : {}), costUsd: cost.costUsd, priced: cost.priced });
  session.messages.push(reply.history);
  session.recentReplies.push(reply.words);
  if (session.recentReplies.length > RECENT_REPLIES) session.recentReplies.shift();
  return { response, reply };
}

/** Switches the session to `next`: its system prompt and request fields replace the old protocol's. Returns the history to send again. */
function degrade(session: EngineSession, next: Protocol, error: unknown, sent: readonly ChatMessage[]): readonly ChatMessage[] {
  session.emit({ type: "protocol_degraded", iteration: session.iterations, from: session.protocol.name, to: next.name, reason: (error as Error)?.message ?? String(error) });
  const system: ChatMessage = { role: "system", content: next.systemPrompt(session.setup!) };
  session.protocol = next;
  session.requestFields = next.requestFields?.(session.setup!) ?? {};
  session.messages[0] = system;
  return [system, ...sent.slice(1)];
}
