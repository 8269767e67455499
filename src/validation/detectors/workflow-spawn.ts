import type { Detector } from "./detector.ts";
import { findClaim, quote } from "./claims.ts";

/** `workflow_spawn`: the reply claims a sub-call, child session or background task was started. */
export const detectWorkflowSpawn: Detector = ({ parts, input }) => {
  if (input.reply === undefined) return undefined;
  const claim = findClaim(parts.prose, "spawnClaim");
  if (!claim) return undefined;
  return { reason: `the reply claims ${quote(claim.sentence)}, but no sub-call or child session was started`, evidence: claim.sentence };
};
