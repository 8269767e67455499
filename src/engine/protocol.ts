import type { JsonValue } from "../core/json-value.ts";
import type { ChatMessage, ModelRequest, ModelResponse } from "../model/model-client.ts";
import type { Tool } from "../tools/tool.ts";
import type { BlockReport } from "./block-report.ts";

/** What a protocol needs to write the system prompt of a session. */
export interface PromptSetup {
  /** Every tool the model may call (nav + user, and the sub-call tools outside `code`). */
  readonly tools: readonly Tool[];
  /** Which of `tools` are the nav tools (described by the nav section rather than the tool list). */
  readonly navToolNames: ReadonlySet<string>;
  /** What the session's input is, as `describeContext` words it. */
  readonly contextDescription: string;
  readonly hasContext: boolean;
  readonly hasRepo: boolean;
  /** The nav and sub-call sections, rendered. */
  readonly sections: string;
  /** The sandbox's output cap per block, in characters. */
  readonly maxOutputChars: number;
  /** The caller's `systemPromptTemplate`, when given. */
  readonly template?: string;
  /** The tool whose call is the answer, when the session has one (the prompt says to call it). */
  readonly finalAnswerTool?: string;
}

/** A reply that counts as one without an action, classified, and the message that tells the model. */
export interface Nudge {
  /** The protocol's name for what the reply held instead (`prose-only`, `python-fence`, …). */
  readonly kind: string;
  /** What was found, in a few words (also used in the session's error when it gives up). */
  readonly found: string;
  /** The user message sent back. */
  readonly text: string;
}

/**
 * One thing a reply asks for, in reply order: a block of code to run (`code`), a call
 * of a tool with its arguments read (`tool_call`), or a call that could not be read
 * (`invalid_tool_call`: it is not run; its `error` goes back to the model).
 */
export type Action =
  | { readonly kind: "code"; readonly index: number; readonly language: string; readonly code: string; readonly unclosed: boolean }
  | { readonly kind: "tool_call"; readonly index: number; readonly id: string; readonly name: string; readonly arguments: unknown; readonly raw: string }
  | { readonly kind: "invalid_tool_call"; readonly index: number; readonly id: string; readonly name?: string; readonly raw: string; readonly error: string };

/** What `Protocol.readReply` is given: the model's response and what the session allows. */
export interface ReadReplyInput {
  readonly response: ModelResponse;
  /** Send the reasoning back in the history (`<think>` tags). */
  readonly keepReasoning: boolean;
  /** The completion token limit the turn was sent with (a reply that reached it was cut). */
  readonly maxTokens: number;
  /** The tools the model may call; a call of any other name is not a call. */
  readonly toolNames: ReadonlySet<string>;
  /** The tool whose call is the answer, when the session has one. */
  readonly finalAnswerTool?: string;
}

/** A reply, read: what runs, what the history keeps, and what to tell the model. */
export interface ReadReply {
  /** The reply's reasoning, for the trace; never run. */
  readonly reasoning?: string;
  /** The model's own text outside calls and blocks. */
  readonly words: string;
  /** What the reply asks for, in order. */
  readonly actions: readonly Action[];
  /** The assistant message the history keeps. */
  readonly history: ChatMessage;
  /** Notes for the feedback after the actions ran (e.g. where a cut reply was cut). */
  readonly notes: readonly string[];
  /**
   * Set when no action runs: an answer (json/tagged/native with no `finalAnswerTool`),
   * or a message for the model, why (for the turn's record), and the nudge when the
   * reply counts as one without an action.
   */
  readonly withoutActions?: { readonly answer: JsonValue } | { readonly text: string; readonly why: string; readonly nudge?: Nudge };
}

/** What one action did, for `Protocol.renderResults`. */
export type ActionOutcome =
  | { readonly action: Extract<Action, { kind: "code" }>; readonly report: BlockReport }
  | { readonly action: Extract<Action, { kind: "tool_call" | "invalid_tool_call" }>; readonly ok: true; readonly value: JsonValue; readonly chars: number; readonly truncated: boolean }
  | { readonly action: Extract<Action, { kind: "tool_call" | "invalid_tool_call" }>; readonly ok: false; readonly error: string };

/** The request fields a protocol may set on every turn (those of them the model contract has). */
export type ProtocolRequestFields = Pick<ModelRequest, Extract<"tools" | "toolChoice" | "stop", keyof ModelRequest>>;

/**
 * How a session talks to the model about its tools: what the system prompt says,
 * how a reply becomes actions, and how their results go back. The turn engine runs
 * the actions (code through the sandbox, tool calls through validation, hooks and
 * the tool); a protocol only reads and writes messages. Implementations: `code`
 * (fenced JavaScript blocks, the default).
 */
export interface Protocol {
  /** The protocol's name, as `runSession({ protocol })` takes it and hooks see it. */
  readonly name: string;
  /** The system prompt of a session with this setup. */
  systemPrompt(setup: PromptSetup): string;
  /** Extra request fields for every turn (native: tools/toolChoice; tagged: stop). */
  requestFields?(setup: PromptSetup): ProtocolRequestFields;
  /** Reads one reply. Calls inside reasoning are never actions. */
  readReply(input: ReadReplyInput): ReadReply;
  /** The messages that tell the model what its actions did (json/tagged: one user message with `Tool Result (name):` per call; native: `tool` messages). */
  renderResults(outcomes: readonly ActionOutcome[], notes: readonly string[]): readonly ChatMessage[];
  /**
   * The protocol to go on with when a model call of this one failed with `error`, or
   * undefined to let the error stand (native: `json` when the server refuses tools,
   * `ToolsUnsupportedError`). The engine then emits `protocol_degraded`, writes the
   * system prompt anew with the returned protocol, and sends the turn again.
   */
  degradeOn?(error: unknown): Protocol | undefined;
}
