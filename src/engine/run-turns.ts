import type { SessionResult } from "../core/session-result.ts";
import { estimateUsage } from "../model/estimate-tokens.ts";
import type { ChatMessage } from "../model/model-client.ts";
import { loadPrompt, renderPrompt } from "../prompts/prompts.ts";
import type { EngineSession } from "./engine-session.ts";
import { finishAborted, finishSession } from "./finish-session.ts";
import { takeTurn } from "./take-turn.ts";

/**
 * The turn loop: until an answer, `maxIterations`, the session's signal or a budget
 * ends it. Every model call is checked against the tree's budget first; when it runs
 * out, a child session stops, and the root gets one last turn, told why
 * (`prompts/final-turn.md`). A re-ask after a hook's correction stays in its iteration.
 */
export async function runTurns(session: EngineSession): Promise<SessionResult> {
  const { tree, model, signal, limits } = session;
  let reask = false;
  while (reask || session.iterations < limits.maxIterations) {
    if (signal.aborted) return finishAborted(session, signal.reason);
    let sent = fitHistory(session, reask ? session.iterations : session.iterations + 1);
    // The root's one last turn after the budget ran out is let through.
    let decision = tree.tracker.reserve({ model: model.modelId, promptTokens: estimateUsage(sent, "").promptTokens, force: session.lastTurn === "pending" });
    if (!decision.ok) {
      session.reportBudget(decision.hit);
      if (session.depth > 0 || session.lastTurn === "taken") return finishSession(session, "budget_exceeded");
      session.lastTurn = "pending";
      const last = session.messages[session.messages.length - 1]!;
      session.messages[session.messages.length - 1] = { ...last, content: `${last.content}\n\n${renderPrompt(loadPrompt("final-turn"), { reason: decision.hit.message })}` };
      sent = fitHistory(session, reask ? session.iterations : session.iterations + 1);
      decision = tree.tracker.reserve({ model: model.modelId, promptTokens: 0, force: true });
      if (!decision.ok) return finishSession(session, "budget_exceeded");
    }
    if (session.lastTurn === "pending") session.lastTurn = "taken";
    if (!reask) {
      session.iterations++;
      session.corrections = 0;
    }
    const end = await takeTurn(session, sent, decision.reservation);
    if ("result" in end) return end.result;
    reask = end.next === "reask";
  }
  return finishSession(session, "max_iterations", { error: `no FINAL answer after ${limits.maxIterations} iterations` });
}

/** The history as it is sent: within the context window's budget when it is known (each compaction an event). */
function fitHistory(session: EngineSession, iteration: number): readonly ChatMessage[] {
  if (!session.history) return session.messages;
  const fitted = session.history.fit(session.messages);
  if (fitted.compaction) session.emit({ type: "history_compacted", iteration, ...fitted.compaction });
  return fitted.messages;
}
