import type { SandboxFactory } from "../../sandbox/index.ts";
import type { JsonValue } from "../core/json-value.ts";
import type { SessionEvent } from "../core/events.ts";
import type { SessionHook } from "../engine/hooks.ts";
import type { SessionValidationOptions } from "./session-validation.ts";
import type { Protocol } from "../engine/protocol.ts";
import type { ModelClient } from "../model/model-client.ts";
import type { NavTools, NavToolsOptions } from "../nav/index.ts";
import type { ProtocolName } from "../protocols/resolve-protocol.ts";
import type { BudgetOptions } from "../subcalls/budget-tracker.ts";
import type { ParentLink } from "../subcalls/call-tree.ts";
import type { PriceTable } from "../subcalls/price-table.ts";
import type { SubcallLimits } from "../subcalls/subcall-limits.ts";
import type { Tool } from "../tools/tool.ts";
import type { SessionSandboxOptions } from "./sandbox-backend.ts";

/** Default cap on one tool result, serialized. */
export const DEFAULT_MAX_TOOL_RESULT_CHARS = 1_000_000;
/** Default number of re-asks within one turn after hook corrections. */
export const DEFAULT_MAX_CORRECTIONS = 2;

/** Options of `runSession`. */
export interface SessionOptions {
  /** What to answer. */
  readonly question: string;
  /** Exposed in the sandbox as the variable `context`: a string or any JSON value. */
  readonly context?: JsonValue;
  /** The model that writes the code. */
  readonly model: ModelClient;
  /** Extra tools, called from guest code in the intercepted form. */
  readonly tools?: readonly Tool[];
  /**
   * A repository to answer questions about: a path (opened with `createNavTools`
   * and closed at the end) or already-open `NavTools`. Registers `nav_info`,
   * `nav_ls`, `nav_outline`, `nav_read`, `nav_search` and `nav_refs`, and tells the model in
   * the system prompt what repository it is looking at.
   */
  readonly repo?: string | NavTools;
  /** Options for opening `repo` when it is a path (index cache location, size caps, search time limit). */
  readonly navOptions?: NavToolsOptions;
  /** Model turns before giving up. Default 20. */
  readonly maxIterations?: number;
  /** Wall-clock limit for the whole session; none by default. */
  readonly timeoutMs?: number;
  /** Sandbox limits: per-block timeout (30 s), memory (128 MB), output per block (20,000 chars); and `backend`, where the code runs. */
  readonly sandbox?: SessionSandboxOptions;
  /** Makes the session's sandbox (and its child sessions'); overrides `sandbox.backend`. */
  readonly sandboxFactory?: SandboxFactory;
  /** Cap on one tool result's JSON; bigger results are cut with a notice. Default 1,000,000. */
  readonly maxToolResultChars?: number;
  /** Receives every event as it happens. An exception thrown here is reported once and otherwise ignored. */
  readonly onEvent?: (event: SessionEvent) => void;
  /** Writes every event to this JSONL file as it happens. */
  readonly tracePath?: string;
  /** Cancels the session (status `error`). */
  readonly signal?: AbortSignal;
  /**
   * Sends the model's reasoning (`<think>` blocks, the server's `reasoning_content`)
   * back in the history, in `<think>` tags. Default false: the history holds only
   * what the model said; the trace and the HTML view keep the reasoning either way.
   */
  readonly keepReasoning?: boolean;
  /**
   * Completion token limit of each model turn, sent as `max_tokens` (it wins over the
   * client's own default). Default 4,096. A reply cut at this limit runs only its
   * complete blocks, and the model is told where it was cut.
   */
  readonly maxTokens?: number;
  /**
   * The root model's context window in tokens; default `model.contextWindow`. When
   * known, each request is kept within it: the oldest turns are compacted into short
   * records (system prompt, question and the last turns stay whole; sandbox variables
   * are untouched), and `maxTokens` is capped at half of it. Child sessions use their
   * sub-model's own `contextWindow`.
   */
  readonly contextWindow?: number;
  /** Replies in a row without runnable code that get a nudge; the next one ends the session with status `no_code`. Default 2. */
  readonly maxNudges?: number;
  /** Replaces the system prompt template (slots as in `prompts/system.md`). */
  readonly systemPromptTemplate?: string;
  /**
   * Answers `llm_query` / `llm_query_batched` and writes the code of `rlm_query`
   * child sessions. Default: the root `model`.
   */
  readonly subModel?: ModelClient;
  /** Exposes `llm_query`, `llm_query_batched`, `rlm_query` and `budget()` in the sandbox and teaches them in the system prompt. Default: on; pass `false` for a session without sub-calls (e.g. a tool named `llm_query`). */
  readonly subcalls?: boolean;
  /** Limits over the whole call tree (root turns, sub-calls, child sessions). None by default; `maxDepth` defaults to 1. */
  readonly budget?: BudgetOptions;
  /** Prices per million tokens by model id, over `DEFAULT_PRICES`. Models without a price cost 0 (listed in `usage.unpricedModels`). */
  readonly prices?: PriceTable;
  /** `llm_query` calls in flight at once across the tree. Default 8. */
  readonly subcallConcurrency?: number;
  /** Time limit of one sub-call: an `llm_query` reply, or a whole `rlm_query` child session. Default 180,000 ms. */
  readonly subcallTimeoutMs?: number;
  /** Caches `llm_query` replies as JSON files in this folder, keyed by sub-model, prompt and options. Off by default. */
  readonly subcallCacheDir?: string;
  /** Bounds on sub-calls: pending calls and prompt characters per session, one prompt's size, the grace of un-awaited calls, child sessions at once and their memory. Each has a default (see `SubcallLimits`). */
  readonly subcallLimits?: SubcallLimits;
  /**
   * How the model acts: `'code'` (default: fenced JavaScript blocks, tool calls
   * intercepted in them, `FINAL(answer)` answers); `'json'` (`{"tool": …, "arguments": …}`
   * objects in the text), `'tagged'` (`<tool_name>{…}</tool_name>` in prose), `'native'`
   * (the provider's tool-calling API, degrading to `json` when the server refuses tools),
   * where a reply without a call is the answer unless `finalAnswerTool` is set; or a
   * `Protocol` object of your own.
   */
  readonly protocol?: ProtocolName | Protocol;
  /**
   * Middleware at four points of each turn (`after_reply`, `before_tool`, `after_tool`,
   * `before_answer`) that can inspect, change, veto or correct; run in the order given.
   * Each veto, correction and warning is a `hook` event. A hook that throws ends the
   * session with status `error`. Child sessions (`rlm_query`) run the same hooks, with
   * `scope: "sub_session"`.
   */
  readonly hooks?: readonly SessionHook[];
  /**
   * Validation hooks (`createValidator` run at the hook points): claimed-but-not-done
   * actions, invented output, answers after failures, ungrounded citations, secrets in
   * tool results. `model` is the validator model (default: `subModel` when one is
   * given, else none: the deterministic detectors). Each round is a `validation` event.
   */
  readonly validation?: SessionValidationOptions;
  /** Times the model is asked again within one turn after `after_reply` hooks ask for a correction. Default 2. */
  readonly maxCorrections?: number;
  /**
   * A tool (one of `tools`) whose call ends the session with its argument as the
   * answer: the value of its one parameter, or the whole arguments object when it has
   * several. Its handler does not run. In `code`, `FINAL` answers either way.
   */
  readonly finalAnswerTool?: string;
  /**
   * A model (often a small, fast one) that gets one chance to rewrite a tool call that
   * cannot run — JSON that does not parse, an unknown tool, arguments the schema
   * refuses — given the call as written, the error and the tool's JSON Schema. A valid
   * rewrite runs in its place; otherwise the error goes back to the model as the call's
   * result, as without a fallback model. Not used in `code`, whose calls are checked
   * before the block runs.
   */
  readonly fallbackModel?: ModelClient;
  /**
   * Tools offered by description: shown with one `description` parameter (in `code`:
   * `const r = set_reminder("daily at 09:00 to check email")`), each call expanded into
   * the real arguments by `translatorModel` (`nlTool`). `true`: every tool of `tools`
   * (and `spawn_sub_session`); an array: the tools of `tools` it names, or `spawn_sub_session`.
   * Default: the tools defined with `nl`; `false`: none.
   */
  readonly nlTools?: boolean | readonly string[];
  /** The model that translates described calls. Default: `subModel`. Its calls count in the budget and are `translation` events. */
  readonly translatorModel?: ModelClient;
  /**
   * Adds `spawn_sub_session` and `await_sub_sessions` (root session only): child sessions
   * run in the background on an objective, with dependencies, `not_before` and a timeout,
   * inside the tree's budgets and its limit on child sessions at once; they end with the
   * session. Each change of a task is a `background_task` event. Default off.
   */
  readonly backgroundSessions?: boolean;
  /** Test and embedding hooks: id generation and clock. `parent` is set by `rlm_query` for child sessions. */
  readonly _internal?: { readonly generateId?: () => string; readonly now?: () => number; readonly parent?: ParentLink };
}
