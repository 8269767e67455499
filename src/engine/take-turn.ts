import type { SessionResult } from "../core/session-result.ts";
import type { ChatMessage } from "../model/model-client.ts";
import type { BudgetReservation } from "../subcalls/budget-tracker.ts";
import { loadPrompt, renderPrompt } from "../prompts/prompts.ts";
import { acceptAnswer } from "./accept-answer.ts";
import { answerUnrunCalls } from "./answer-unrun-calls.ts";
import { askModel } from "./ask-model.ts";
import type { EngineSession } from "./engine-session.ts";
import { finishSession } from "./finish-session.ts";
import { hookBase } from "./hook-base.ts";
import { runActions } from "./run-actions.ts";
import { emptyTurnRecord } from "./turn-record.ts";

/** How a turn ended: the session is over, or the loop goes on with a new turn, or asks again within this one. */
export type TurnEnd = { readonly result: SessionResult } | { readonly next: "turn" | "reask" };

/**
 * One turn: the model is asked (`askModel`), the `after_reply` hooks see the reply
 * (a correction asks again within the same iteration, at most `maxCorrections`
 * times; a veto runs none of its actions), then the reply's answer, nudge or
 * actions (`runActions`) decide what the model is told next.
 */
export async function takeTurn(session: EngineSession, sent: readonly ChatMessage[], reservation: BudgetReservation): Promise<TurnEnd> {
  session.turn.reset();
  session.hooks.takeCorrections();
  const asked = await askModel(session, sent, reservation);
  if ("result" in asked) return asked;
  const { response, reply } = asked;
  const verdict = await session.hooks.run({ ...hookBase(session), point: "after_reply", reply, response });
  // A discarded reply leaves the history as if it had not been written; what the model is told next joins the message before it.
  if (verdict.discards.length > 0) dropReply(session, reply.history);
  if (verdict.corrections.length > 0 && session.corrections < session.limits.maxCorrections) {
    session.corrections++;
    tell(session, renderPrompt(loadPrompt("hook-correction"), { corrections: session.hooks.takeCorrections().join("\n\n") }).trimEnd(), "a hook asked for another reply");
    return { next: "reask" };
  }
  if (verdict.vetoes.length > 0 || verdict.discards.length > 0) {
    const vetoed = renderPrompt(loadPrompt("reply-vetoed"), { reasons: [...verdict.vetoes, ...verdict.discards].join("; ") }).trimEnd();
    tell(session, [vetoed, ...session.hooks.takeCorrections()].join("\n\n"), "a hook vetoed the reply");
    return { next: "turn" };
  }
  const without = reply.withoutActions;
  if (without && "answer" in without) {
    const answered = await acceptAnswer(session, without.answer, reply.words);
    if ("result" in answered) return answered;
    tell(session, [answered.refusal, ...session.hooks.takeCorrections()].join("\n\n"), "a hook refused the answer");
    return { next: "turn" };
  }
  if (without) {
    const { nudge, text, why } = without;
    if (nudge && session.nudges >= session.limits.maxNudges) {
      const message = `the model wrote no runnable code in ${session.nudges + 1} replies in a row (the last one: ${nudge.found})`;
      session.emit({ type: "error", iteration: session.iterations, message });
      return { result: finishSession(session, "no_code", { error: message }) };
    }
    if (nudge) session.nudges++;
    tell(session, [text, ...session.hooks.takeCorrections()].join("\n\n"), why);
    return { next: "turn" };
  }
  session.nudges = 0;
  return runActions(session, reply);
}

/** Tells the model `text` in a turn where nothing ran, and records the turn as such. After a discarded reply the text joins the user message it would follow. */
function tell(session: EngineSession, text: string, why: string): void {
  session.emit({ type: "feedback", iteration: session.iterations, text });
  answerUnrunCalls(session.messages, why);
  const last = session.messages.at(-1);
  if (last?.role === "user") {
    // No exchange was added (the reply was discarded), so there is no turn to record either.
    session.messages[session.messages.length - 1] = { ...last, content: `${last.content}\n\n${text}` };
    return;
  }
  session.messages.push({ role: "user", content: text });
  session.history?.record(emptyTurnRecord(session.iterations, why));
}

/** Removes a reply's assistant message from the history (a hook discarded it). */
function dropReply(session: EngineSession, message: ChatMessage): void {
  const index = session.messages.lastIndexOf(message);
  if (index >= 0) session.messages.splice(index, 1);
}
