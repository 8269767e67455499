import { answers } from "../ledger-checks.ts";
import type { Detector } from "./detector.ts";
import { quote } from "./claims.ts";

/**
 * `final_after_failure`: the turn answers (an `answer`, or a `FINAL` in the
 * reply's code). The second stage confirms it only when something failed this
 * turn (a tool call, a sub-call, a budget refusal) and the answer does not say so.
 */
export const detectFinalAfterFailure: Detector = (context) => {
  const { parts, answerText } = context;
  if (!answers(context)) return undefined;
  return { reason: `the answer ${quote(answerText ?? "")} was given in a turn where something failed, and it does not say so`, evidence: [answerText ?? "", parts.prose, ...parts.code.flatMap((code) => code.match(/\bFINAL(?:_VAR)?\s*\(.*$/gmu) ?? [])].join("\n") };
};
