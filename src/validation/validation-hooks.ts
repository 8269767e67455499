import type { HookContext, HookPoint, SessionHook } from "../engine/hooks.ts";
import { loadPrompt } from "../prompts/prompts.ts";
import type { Validator } from "./create-validator.ts";
import { REPETITION_WINDOW } from "./detectors/repetition-loop.ts";
import type { ValidationInput, ValidationPhase, ValidationResult, ValidationTurn } from "./validation-types.ts";

/** One validation round of a session, as the `validation` trace event records it. */
export interface ValidationRoundReport {
  readonly sessionId: string;
  readonly iteration: number;
  readonly point: HookPoint;
  readonly phase: ValidationPhase;
  readonly result: ValidationResult;
}

/** Options of {@link validationHooks}. */
export interface ValidationHooksOptions {
  /** Told about every round that ran a hook (a session records each as a `validation` event). */
  readonly onRound?: (round: ValidationRoundReport) => void;
}

/** How much earlier feedback grounds a reply's claims: the last messages the model was shown, each clipped. */
const GROUNDING_MESSAGES = 3;
const GROUNDING_CHARS = 8_000;

/**
 * The validator as session hooks:
 *
 * - `after_reply` runs the reply hooks (`post_inference`): a correction makes the
 *   engine ask again within the turn, nothing of the reply run; a hook with
 *   `haltInference` (`fabricated_output`, by default) also vetoes the reply, so it
 *   does not run even when the turn's corrections are used up;
 * - `before_tool` checks the arguments (`pre_execution`): a violation vetoes the
 *   call, and the correction is the call's error;
 * - `after_tool` checks the result (`post_execution`): a redacted result replaces the real one;
 * - `before_answer` runs the answer hooks (`final_after_failure`, `ungrounded_citation`,
 *   and in child sessions `objective_completion` against the child's question):
 *   a violation refuses the answer and corrects it.
 *
 * Each hook corrects once per turn (the turn is the iteration); a reply that
 * violates again is let through, and the round's notes say so.
 */
export function validationHooks(validator: Validator, options: ValidationHooksOptions = {}): SessionHook[] {
  const answerHooks = validator.hooks.filter((hook) => hook.phase === "post_inference" && hook.requires.some((need) => need === "answer" || need === "repo" || need === "objective")).map((hook) => hook.name);
  const replyHooks = validator.hooks.filter((hook) => hook.phase === "post_inference" && !answerHooks.includes(hook.name)).map((hook) => hook.name);
  const correctionHeader = loadPrompt("validation/correction").split("\n")[0]!;
  // Whole replies (code included) by session, for repetition_loop: the engine's recentReplies hold only the words.
  const replies = new Map<string, { iteration: number; text: string }[]>();

  const round = async (context: HookContext, phase: ValidationPhase, input: Partial<ValidationInput>): Promise<ValidationResult> => {
    const result = await validator.check({
      phase,
      scope: context.scope,
      turn: groundedTurn(context, correctionHeader),
      turnId: context.iteration,
      sessionId: context.sessionId,
      ...(context.nav ? { repo: context.nav } : {}),
      ...input,
    });
    if (result.checked.length > 0) {
      options.onRound?.({ sessionId: context.sessionId, iteration: context.iteration, point: context.point, phase, result });
    }
    return result;
  };

  return [
    {
      name: "validation",
      points: ["after_reply", "before_tool", "after_tool", "before_answer"],
      run: async (context, next) => {
        switch (context.point) {
          case "after_reply": {
            const earlier = replies.get(context.sessionId) ?? [];
            // Replies of this turn (asked again after a correction) are not a loop: the once-per-turn rule covers them.
            const recentReplies = earlier.filter((entry) => entry.iteration < context.iteration).slice(-REPETITION_WINDOW).map((entry) => entry.text);
            replies.set(context.sessionId, [...earlier, { iteration: context.iteration, text: context.response.text }].slice(-(REPETITION_WINDOW + 4)));
            const result = await round(context, "post_inference", { reply: context.response.text, recentReplies, only: replyHooks });
            if (result.halt) context.veto(reasons(result));
            // killOnDetect: the reply is dropped from the history, so the model answers the correction without it.
            if (result.discard) context.discard(reasons(result));
            if (result.correction) context.correct(result.correction);
            break;
          }
          case "before_tool": {
            const result = await round(context, "pre_execution", { toolCall: { name: context.call.name, arguments: context.call.arguments }, tools: [context.tool], only: names(validator, "pre_execution") });
            if (result.violations.length > 0) context.veto(result.correction ?? reasons(result));
            break;
          }
          case "after_tool": {
            if (!context.result.ok) break;
            const result = await round(context, "post_execution", { toolCall: { name: context.call.name, arguments: context.call.arguments }, toolResult: context.result.value, only: names(validator, "post_execution") });
            if (result.toolResult !== undefined) context.result = { ok: true, value: result.toolResult };
            if (result.correction) context.correct(result.correction);
            break;
          }
          case "before_answer": {
            const result = await round(context, "post_inference", {
              answer: context.answer,
              reply: context.words,
              only: answerHooks,
              ...(context.scope === "sub_session" ? { objective: context.question } : {}),
            });
            if (result.violations.length > 0) {
              context.veto(reasons(result));
              if (result.correction) context.correct(result.correction);
            }
            break;
          }
        }
        await next();
      },
    },
  ];
}

function names(validator: Validator, phase: ValidationPhase): string[] {
  return validator.hooks.filter((hook) => hook.phase === phase).map((hook) => hook.name);
}

function reasons(result: ValidationResult): string {
  return result.violations.map((violation) => `${violation.hook}: ${violation.reason}`).join("; ");
}

/** The turn's ledger, with the last messages the model was shown (not the validator's own corrections) added to what grounds its claims. */
function groundedTurn(context: HookContext, correctionHeader: string): ValidationTurn {
  const shown = context.history
    .slice(2)
    .filter((message) => message.role !== "assistant" && message.role !== "system" && !message.content.includes(correctionHeader))
    .slice(-GROUNDING_MESSAGES)
    .map((message) => message.content.slice(0, GROUNDING_CHARS));
  const { turn } = context;
  // Read field by field: the engine's ledger may be a class whose fields are getters.
  return {
    toolCalls: turn.toolCalls,
    blocksRun: turn.blocksRun,
    outputSeen: [...shown, ...turn.outputSeen],
    subcallsStarted: turn.subcallsStarted,
    subcallsFailed: turn.subcallsFailed,
    childSessionsStarted: turn.childSessionsStarted,
    budgetRefused: turn.budgetRefused,
  };
}
