export { ReplayDivergedError, ReplayModel } from "./replay-model.ts";
export { replaySession, type ReplayOutcome, type ReplaySessionOptions } from "./replay-session.ts";
