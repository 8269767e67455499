import type { HookPoint } from "../core/events.ts";
import type { JsonValue } from "../core/json-value.ts";
import type { ChatMessage, ModelResponse } from "../model/model-client.ts";
import type { NavTools } from "../nav/index.ts";
import type { Tool } from "../tools/tool.ts";
import type { ReadReply } from "./protocol.ts";

export type { HookPoint };

/** What actually ran in the current turn so far (hooks read it to check a reply against it). */
export interface TurnLedger {
  /** Tool calls run this turn (intercepted in code blocks, or tool-call actions), in order. */
  readonly toolCalls: readonly { readonly name: string; readonly arguments: unknown; readonly ok: boolean; readonly error?: string }[];
  /** Code blocks run this turn. */
  readonly blocksRun: number;
  /** Block outputs and tool results produced this turn so far, each clipped to 2,000 characters. */
  readonly outputSeen: readonly string[];
  readonly subcallsStarted: number;
  readonly subcallsFailed: number;
  readonly childSessionsStarted: number;
  /** True when a budget refused a call this turn. */
  readonly budgetRefused: boolean;
}

interface HookContextBase {
  readonly sessionId: string;
  /** 0 for the root session, 1 for its child sessions, … */
  readonly depth: number;
  readonly scope: "main" | "sub_session";
  readonly iteration: number;
  readonly question: string;
  /** The session's protocol (`code`, …). */
  readonly protocol: string;
  readonly turn: TurnLedger;
  /** The history as it stands (system prompt and question first). */
  readonly history: readonly ChatMessage[];
  /** The model's last replies (their text without reasoning), oldest first. */
  readonly recentReplies: readonly string[];
  /** The session's repository, when it has one. */
  readonly nav?: NavTools;
  /** Adds text to the one correction message of this turn (the model sees it; the turn is asked again). */
  correct(message: string): void;
  /** Stops what this point guards with a reason; recorded in the trace. */
  veto(reason: string): void;
  /** Records a warning in the trace (no effect on the turn). */
  warn(message: string): void;
  /**
   * `after_reply` only: drops the reply from the history as if it had never been
   * written (none of it runs; a correction then asks again without it). At other
   * points it is recorded and has no effect.
   */
  discard(reason: string): void;
}

/**
 * What a hook sees at its point:
 * - `after_reply`: the reply, read; a veto runs none of its actions.
 * - `before_tool`: a tool call about to run (a hook may replace `call.arguments`); a veto skips the call, the reason is its error result.
 * - `after_tool`: the call and its result; a hook may replace `result` (e.g. redaction).
 * - `before_answer`: an answer about to be accepted; a veto refuses it and the session goes on.
 */
export type HookContext = HookContextBase &
  (
    | { readonly point: "after_reply"; readonly reply: ReadReply; readonly response: ModelResponse }
    | { readonly point: "before_tool"; readonly call: { readonly id: string; readonly name: string; arguments: unknown }; readonly tool: Tool }
    | { readonly point: "after_tool"; readonly call: { readonly id: string; readonly name: string; readonly arguments: unknown }; result: { readonly ok: true; readonly value: JsonValue } | { readonly ok: false; readonly error: string } }
    | { readonly point: "before_answer"; readonly answer: JsonValue; readonly words: string }
  );

/** One middleware: look at (or change) the context, then `await next()` to run the rest, or return without calling it to stop there. */
export type HookMiddleware = (context: HookContext, next: () => Promise<void>) => void | Promise<void>;

/**
 * A named hook of a session (`runSession({ hooks })`): `run` runs at each of `points`,
 * in the order the hooks were given. A hook that throws is a host fault: the session
 * ends with an `error` event and status `error`.
 *
 * @example
 * const noEmptyAnswers: SessionHook = {
 *   name: "no-empty-answers",
 *   points: ["before_answer"],
 *   run: async (context, next) => {
 *     if (context.point === "before_answer" && context.answer === "") context.veto("the answer is empty");
 *     await next();
 *   },
 * };
 */
export interface SessionHook {
  /** Names the hook in `hook` trace events. */
  readonly name: string;
  readonly points: readonly HookPoint[];
  readonly run: HookMiddleware;
}
