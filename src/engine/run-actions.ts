import type { JsonValue } from "../core/json-value.ts";
import { loadPrompt, renderPrompt } from "../prompts/prompts.ts";
import { validateToolArguments } from "../tools/validate-arguments.ts";
import { acceptAnswer } from "./accept-answer.ts";
import { runCodeAction } from "./code-action.ts";
import type { EngineSession } from "./engine-session.ts";
import { finishAborted, finishSession } from "./finish-session.ts";
import type { Action, ActionOutcome, ReadReply } from "./protocol.ts";
import type { TurnEnd } from "./take-turn.ts";
import { runToolCallAction } from "./tool-call-action.ts";
import { turnRecord } from "./turn-record.ts";

/**
 * Runs a reply's actions in order: code through the sandbox (an executed `FINAL`
 * offers its answer), tool calls through validation and the tool hooks, a call of
 * the `finalAnswerTool` as an answer. An accepted answer ends the session; a refused
 * one ends the actions. Then the protocol renders what ran, with the reply's notes,
 * the hooks' corrections and, near a limit, the last-turn notice.
 */
export async function runActions(session: EngineSession, reply: ReadReply): Promise<TurnEnd> {
  const { emit, signal, limits } = session;
  const iteration = session.iterations;
  const outcomes: ActionOutcome[] = [];
  const notes = [...reply.notes];
  for (const action of reply.actions) {
    if (signal.aborted) return { result: finishAborted(session, signal.reason) };
    let answer: { readonly value: JsonValue } | undefined;
    if (action.kind === "code") {
      emit({ type: "code_block", iteration, index: action.index, language: action.language, code: action.code, unclosed: action.unclosed });
      const report = await runCodeAction(session, action);
      // Sub-calls the block left running get a short grace, then end.
      session.pending.endBlock();
      outcomes.push({ action, report });
      if (report.result?.final) answer = { value: report.result.final.value as JsonValue };
    } else if (action.kind === "tool_call" && action.name === limits.finalAnswerTool) {
      const read = finalAnswerOf(session, action);
      if ("error" in read) outcomes.push({ action, ok: false, error: read.error });
      else answer = read;
    } else {
      outcomes.push(await runToolCallAction(session, action));
    }
    if (answer) {
      const answered = await acceptAnswer(session, answer.value, reply.words);
      if ("result" in answered) return answered;
      if (action.kind !== "code") outcomes.push({ action, ok: false, error: answered.refusal });
      else notes.push(answered.refusal);
      break;
    }
  }
  notes.push(...session.hooks.takeCorrections());
  const exhausted = session.tree.tracker.exhausted;
  if (exhausted) {
    // A sub-call was refused: children stop here; the root answers in one last turn.
    session.reportBudget(exhausted);
    if (session.depth > 0 || session.lastTurn === "taken") {
      emit({ type: "feedback", iteration, text: textOf(session.protocol.renderResults(outcomes, [])) });
      return { result: finishSession(session, "budget_exceeded") };
    }
    session.lastTurn = "pending";
    notes.push(renderPrompt(loadPrompt("final-turn"), { reason: exhausted.message }));
  } else if (iteration === limits.maxIterations - 1) notes.push(renderPrompt(loadPrompt("final-turn"), { reason: `You have used ${iteration} of ${limits.maxIterations} turns.` }));
  const messages = session.protocol.renderResults(outcomes, notes);
  emit({ type: "feedback", iteration, text: textOf(messages) });
  session.messages.push(...messages);
  session.history?.record(turnRecord(iteration, outcomes));
  return { next: "turn" };
}

/**
 * The answer a call of the `finalAnswerTool` gives: its arguments, checked against
 * the tool's schema; the value of its one parameter when it has exactly one, else
 * the whole arguments object. The tool's handler does not run.
 */
function finalAnswerOf(session: EngineSession, action: Extract<Action, { kind: "tool_call" }>): { readonly value: JsonValue } | { readonly error: string } {
  const tool = session.tools.get(action.name)!;
  const checked = validateToolArguments(tool, action.arguments);
  if (!checked.ok) return { error: checked.message };
  const names = Object.keys(tool.parameters.properties);
  return { value: (names.length === 1 ? (checked.args[names[0]!] ?? null) : checked.args) as JsonValue };
}

function textOf(messages: readonly { readonly content: string }[]): string {
  return messages.map((message) => message.content).join("\n\n");
}
