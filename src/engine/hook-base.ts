import type { EngineSession } from "./engine-session.ts";

/** The fields every hook context of the session's current turn carries. */
export function hookBase(session: EngineSession) {
  return {
    sessionId: session.sessionId,
    depth: session.depth,
    scope: session.depth === 0 ? ("main" as const) : ("sub_session" as const),
    iteration: session.iterations,
    question: session.question,
    protocol: session.protocol.name,
    turn: session.turn,
    history: session.messages,
    recentReplies: session.recentReplies,
    ...(session.nav ? { nav: session.nav } : {}),
  };
}
