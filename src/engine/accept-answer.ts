import type { JsonValue } from "../core/json-value.ts";
import type { SessionResult } from "../core/session-result.ts";
import { loadPrompt, renderPrompt } from "../prompts/prompts.ts";
import type { EngineSession } from "./engine-session.ts";
import { finishSession } from "./finish-session.ts";
import { hookBase } from "./hook-base.ts";

/**
 * Offers an answer to the `before_answer` hooks: accepted, it ends the session
 * (`final` event, status `final`); vetoed, the session goes on and `refusal` (from
 * `prompts/answer-vetoed.md`) tells the model why.
 */
export async function acceptAnswer(session: EngineSession, answer: JsonValue, words: string): Promise<{ readonly result: SessionResult } | { readonly refusal: string }> {
  if (session.hooks.has("before_answer")) {
    const verdict = await session.hooks.run({ ...hookBase(session), point: "before_answer", answer, words });
    if (verdict.vetoes.length > 0) return { refusal: renderPrompt(loadPrompt("answer-vetoed"), { reasons: verdict.vetoes.join("; ") }).trimEnd() };
  }
  session.emit({ type: "final", iteration: session.iterations, answer });
  return { result: finishSession(session, "final", { answer }) };
}
