import { findPhrase } from "./phrases/index.ts";
import { concreteTokens, sentences } from "./reply-parts.ts";
import type { Detection, DetectorContext } from "./detectors/detector.ts";
import type { ValidationTurn } from "./validation-types.ts";

/** A stage-2 verdict: confirmed (with slots for the correction), or a false positive and why. */
export type LedgerVerdict = { readonly confirmed: true; readonly slots?: Readonly<Record<string, string>> } | { readonly confirmed: false; readonly reason: string };

/** A programmatic stage-2 check: the detection against the ledger of what ran. */
export type LedgerCheck = (detection: Detection, context: DetectorContext) => LedgerVerdict;

const SPAWNS = /\b(?:llm_query(?:_batched)?|rlm_query)\s*\(/u;

function ranSomething(turn: ValidationTurn): string | undefined {
  if (turn.toolCalls.length > 0) return `${turn.toolCalls.length} tool call${turn.toolCalls.length === 1 ? "" : "s"} ran this turn`;
  if (turn.blocksRun > 0) return `${turn.blocksRun} block${turn.blocksRun === 1 ? "" : "s"} ran this turn`;
  if ((turn.subcallsStarted ?? 0) + (turn.childSessionsStarted ?? 0) > 0) return "a sub-call ran this turn";
  return undefined;
}

/** True when most of the claim's concrete values (or, with none, its longer words) are in the output the model has seen. */
export function groundedIn(evidence: string, outputSeen: readonly string[], emptyClaimIsGrounded: boolean): boolean {
  const seen = outputSeen.join("\n").toLowerCase();
  if (seen.trim() === "") return false;
  let tokens = concreteTokens(evidence);
  if (tokens.length === 0) {
    if (emptyClaimIsGrounded) return true;
    tokens = evidence.match(/[\p{L}\p{N}_$]{5,}/gu) ?? [];
  }
  if (tokens.length === 0) return false;
  const found = tokens.filter((token) => seen.includes(token.toLowerCase())).length;
  return found / tokens.length >= 0.6;
}

function endsWithQuestion(prose: string): boolean {
  return /[?？]\s*[)"'»”*_]*\s*$/u.test(prose.replace(/[\p{Extended_Pictographic}\s]+$/gu, ""));
}

/** The failures of a turn, one line each. */
export function turnFailures(turn: ValidationTurn): string[] {
  const failures = turn.toolCalls.filter((call) => !call.ok).map((call) => `${call.name} failed${call.error ? `: ${call.error}` : ""}`);
  if ((turn.subcallsFailed ?? 0) > 0) failures.push(`${turn.subcallsFailed} sub-call${turn.subcallsFailed === 1 ? "" : "s"} failed`);
  if (turn.budgetRefused) failures.push("a budget refused a call");
  return failures;
}

/** The programmatic stage-2 checks, by name (custom hooks name them in `validatorFn`). */
export const LEDGER_CHECKS: Readonly<Record<string, LedgerCheck>> = {
  /** Always confirmed: the detector already checked all there is (schema, secrets, citations, repetition). */
  confirm: () => ({ confirmed: true }),
  phantom_tool_result: (detection, { input }) => {
    const ran = ranSomething(input.turn);
    if (ran) return { confirmed: false, reason: `${ran}; the data may come from it` };
    if (groundedIn(detection.evidence ?? "", input.turn.outputSeen, true)) return { confirmed: false, reason: "what it presents is in output the model has seen" };
    return { confirmed: true };
  },
  fabricated_output: (detection, { input }) => {
    if (groundedIn(detection.evidence ?? "", input.turn.outputSeen, false)) return { confirmed: false, reason: "the stated output is in output the model has already seen" };
    return { confirmed: true };
  },
  empty_promise: (_detection, { input, parts }) => {
    const ran = ranSomething(input.turn);
    if (ran) return { confirmed: false, reason: ran };
    if (parts.actions > 0) return { confirmed: false, reason: "the reply has code or a tool call" };
    if (endsWithQuestion(parts.prose)) return { confirmed: false, reason: "the reply ends with a question: it asks before acting" };
    return { confirmed: true };
  },
  workflow_spawn: (_detection, { input, parts }) => {
    const started = (input.turn.subcallsStarted ?? 0) + (input.turn.childSessionsStarted ?? 0);
    if (started > 0) return { confirmed: false, reason: `${started} sub-call${started === 1 ? "" : "s"} or child session${started === 1 ? "" : "s"} started this turn` };
    if (parts.code.some((code) => SPAWNS.test(code))) return { confirmed: false, reason: "the reply's code starts one" };
    return { confirmed: true };
  },
  final_after_failure: (detection, { input }) => {
    const failures = turnFailures(input.turn);
    if (failures.length === 0) return { confirmed: false, reason: "nothing failed this turn" };
    const acknowledged = sentences(detection.evidence ?? "").some((sentence) => findPhrase(sentence, "acknowledgesFailure") !== undefined);
    if (acknowledged) return { confirmed: false, reason: "the answer says what failed" };
    return { confirmed: true, slots: { failures: failures.map((failure) => `- ${failure}`).join("\n") } };
  },
};

/** True when the reply answers: an `answer` was given, or its code calls `FINAL`. */
export function answers(context: Pick<DetectorContext, "input" | "parts">): boolean {
  return context.input.answer !== undefined || context.parts.code.some((code) => /\bFINAL(?:_VAR)?\s*\(/u.test(code));
}
