import type { Sandbox } from "../../sandbox/index.ts";
import type { SessionEventInput } from "../core/events.ts";
import type { BudgetHit } from "../core/usage.ts";
import type { ChatMessage, ModelClient } from "../model/model-client.ts";
import type { NavTools } from "../nav/index.ts";
import type { CallTree } from "../subcalls/call-tree.ts";
import type { PendingSubcalls } from "../subcalls/pending-subcalls.ts";
import type { UsageLedger } from "../subcalls/usage-ledger.ts";
import type { Tool } from "../tools/tool.ts";
import type { HistoryBudget } from "./history-budget.ts";
import type { PromptSetup, Protocol, ProtocolRequestFields } from "./protocol.ts";
import type { SessionHooks } from "./session-hooks.ts";
import type { TurnRecorder } from "./turn-ledger.ts";

/** The limits and switches of a session's turns, defaults applied. */
export interface TurnLimits {
  readonly maxIterations: number;
  readonly maxNudges: number;
  /** Re-asks after `after_reply` corrections, per iteration. */
  readonly maxCorrections: number;
  /** The completion token limit of each turn (after the context window's cap). */
  readonly maxTokens: number;
  readonly keepReasoning: boolean;
  readonly maxToolResultChars: number;
  readonly finalAnswerTool?: string;
}

/**
 * A session as the turn engine runs it: what it was given and the state its turns
 * share. Built once by `runSession`; every stage of a turn (`src/engine/*`) reads it,
 * and the counters under "state" are the only fields that change.
 */
export interface EngineSession {
  readonly sessionId: string;
  /** 0 for the root session, 1 for its child sessions, … */
  readonly depth: number;
  readonly question: string;
  readonly model: ModelClient;
  /** Rewrites a tool call that cannot run, once (`fallbackModel`). */
  readonly fallbackModel?: ModelClient;
  /** The protocol (replaced when it degrades, see `Protocol.degradeOn`). */
  protocol: Protocol;
  /** What the protocol wrote its system prompt from (set before the first turn). */
  setup: PromptSetup | undefined;
  /** What the protocol adds to every request (set once the prompt setup is known). */
  requestFields: ProtocolRequestFields;
  readonly tree: CallTree;
  /** This session's own ledger (the tree's root ledger for the root session). */
  readonly ledger: UsageLedger;
  /** Every tool by name (nav tools first). */
  readonly tools: ReadonlyMap<string, Tool>;
  readonly toolNames: ReadonlySet<string>;
  readonly nav: NavTools | undefined;
  readonly limits: TurnLimits;
  readonly hooks: SessionHooks;
  /** What ran in the current turn. */
  readonly turn: TurnRecorder;
  /** The session's sandbox, opened on first use. */
  readonly sandbox: () => Promise<Sandbox>;
  readonly pending: PendingSubcalls;
  /** Aborts when the caller cancels, the session times out, or it ends. */
  readonly signal: AbortSignal;
  readonly now: () => number;
  /** Stamps and sends an event (also to the turn ledger). */
  readonly emit: (event: SessionEventInput) => void;
  /** Emits `budget_exceeded` once per session. */
  readonly reportBudget: (hit: BudgetHit) => void;
  /** Mixed into injected global names so they never collide across sessions. */
  readonly injectionTag: string;
  /** The whole history (the history budget decides what of it is sent). */
  readonly messages: ChatMessage[];
  /** Keeps requests within the context window, when it is known. */
  readonly history: HistoryBudget | undefined;
  /** The model's last replies (text without reasoning), oldest first, for hooks. */
  readonly recentReplies: string[];
  /** When it started, by `now()`. */
  readonly started: number;
  // State.
  /** Model turns taken. */
  iterations: number;
  /** Results injected into the sandbox so far (names them). */
  injected: number;
  /** Replies without an action in a row. */
  nudges: number;
  /** Re-asks after hook corrections in the current iteration. */
  corrections: number;
  /** After a budget runs out the root gets one more turn: "pending" until it is taken. */
  lastTurn: "none" | "pending" | "taken";
}
