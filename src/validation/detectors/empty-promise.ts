import type { Detector } from "./detector.ts";
import { findClaim, quote } from "./claims.ts";

/**
 * `empty_promise`: the reply commits to an action ("I'll check the tests",
 * "Lass mich nachsehen", "Je vais vérifier", "Voy a revisar") and contains no
 * code or call to do it. A reply that ends in a question is for the second stage.
 */
export const detectEmptyPromise: Detector = ({ parts, input }) => {
  if (input.reply === undefined || parts.actions > 0) return undefined;
  const claim = findClaim(parts.prose, "promise");
  if (!claim) return undefined;
  return { reason: `the reply says ${quote(claim.sentence)} but contains no code or tool call to do it`, evidence: claim.sentence };
};
