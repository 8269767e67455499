import type { SessionEvent } from "../core/events.ts";

type EventOf<T extends SessionEvent["type"]> = Extract<SessionEvent, { type: T }>;

/** One code block of a turn with everything that happened to it. */
export interface BlockNode {
  readonly index: number;
  code?: EventOf<"code_block">;
  rejected?: EventOf<"intercept_rejected">;
  readonly toolCalls: EventOf<"tool_call">[];
  result?: EventOf<"sandbox_result">;
  /** Child sessions started while this block ran (sub-calls). */
  readonly children: SessionNode[];
  /** Events of kinds this view does not know, kept in order (e.g. sub-call markers). */
  readonly other: SessionEvent[];
  /** `children` and `other` together, in the order they happened. */
  readonly sequence: (SessionNode | SessionEvent)[];
}

/** One model turn. */
export interface TurnNode {
  readonly iteration: number;
  modelCall?: EventOf<"model_call">;
  /** Requests to the model that failed and were retried before the reply. */
  readonly retries: EventOf<"model_retry">[];
  readonly blocks: BlockNode[];
  readonly feedback: EventOf<"feedback">[];
  readonly errors: EventOf<"error">[];
  readonly other: SessionEvent[];
}

/** One session (the root, or a sub-call's child session) and its turns. */
export interface SessionNode {
  readonly sessionId: string;
  readonly depth: number;
  start?: EventOf<"session_start">;
  end?: EventOf<"session_end">;
  final?: EventOf<"final">;
  readonly turns: TurnNode[];
  /** Errors and other events outside any turn, and child sessions not tied to a block. */
  readonly errors: EventOf<"error">[];
  readonly children: SessionNode[];
  readonly other: SessionEvent[];
}

/**
 * Groups trace events into a tree: sessions → turns → blocks, with child sessions
 * (sub-calls) nested under the block that was running when they started, or under
 * their parent session when no block was. Returns the root sessions in order.
 */
export function buildSessionTree(events: readonly SessionEvent[]): SessionNode[] {
  const sessions = new Map<string, SessionNode>();
  const openBlock = new Map<string, BlockNode>();
  const roots: SessionNode[] = [];

  const sessionOf = (event: SessionEvent): SessionNode => {
    let node = sessions.get(event.sessionId);
    if (!node) {
      node = { sessionId: event.sessionId, depth: event.depth ?? 0, turns: [], errors: [], children: [], other: [] };
      sessions.set(event.sessionId, node);
      const parentId = event.type === "session_start" ? event.parentSessionId : undefined;
      const parent = parentId !== undefined ? sessions.get(parentId) : undefined;
      if (parent) {
        const block = openBlock.get(parent.sessionId);
        if (block) {
          block.children.push(node);
          block.sequence.push(node);
        } else {
          parent.children.push(node);
        }
      } else {
        roots.push(node);
      }
    }
    return node;
  };
  const turnOf = (session: SessionNode, iteration: number): TurnNode => {
    let turn = session.turns.find((candidate) => candidate.iteration === iteration);
    if (!turn) {
      turn = { iteration, retries: [], blocks: [], feedback: [], errors: [], other: [] };
      session.turns.push(turn);
    }
    return turn;
  };
  const blockOf = (turn: TurnNode, index: number): BlockNode => {
    let block = turn.blocks.find((candidate) => candidate.index === index);
    if (!block) {
      block = { index, toolCalls: [], children: [], other: [], sequence: [] };
      turn.blocks.push(block);
    }
    return block;
  };

  for (const event of events) {
    const session = sessionOf(event);
    switch (event.type) {
      case "session_start":
        session.start = event;
        break;
      case "session_end":
        session.end = event;
        openBlock.delete(session.sessionId);
        break;
      case "final":
        session.final = event;
        break;
      case "model_call":
        turnOf(session, event.iteration).modelCall = event;
        openBlock.delete(session.sessionId);
        break;
      case "code_block": {
        const block = blockOf(turnOf(session, event.iteration), event.index);
        block.code = event;
        openBlock.set(session.sessionId, block);
        break;
      }
      case "intercept_rejected":
        blockOf(turnOf(session, event.iteration), event.index).rejected = event;
        break;
      case "tool_call":
        blockOf(turnOf(session, event.iteration), event.index).toolCalls.push(event);
        break;
      case "sandbox_result":
        blockOf(turnOf(session, event.iteration), event.index).result = event;
        break;
      case "feedback":
        turnOf(session, event.iteration).feedback.push(event);
        openBlock.delete(session.sessionId);
        break;
      case "model_request":
      case "model_progress":
        // Live progress only: the model_call (or subcall_end) that follows holds the outcome.
        break;
      case "error":
        (event.iteration !== undefined && event.iteration > 0 ? turnOf(session, event.iteration).errors : session.errors).push(event);
        break;
      default: {
        // The retries of the turn's own model call; those of an llm_query stay with the block that made it.
        if (event.type === "model_retry" && event.subcallId === undefined) {
          turnOf(session, event.iteration).retries.push(event);
          break;
        }
        const loose = event as SessionEvent & { iteration?: number; index?: number };
        const block = openBlock.get(session.sessionId);
        if (block) {
          block.other.push(event);
          block.sequence.push(event);
        }
        else if (typeof loose.iteration === "number") turnOf(session, loose.iteration).other.push(event);
        else session.other.push(event);
      }
    }
  }
  return roots;
}
