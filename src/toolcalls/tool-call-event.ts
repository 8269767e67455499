/** The two text protocols the parser reads. */
export type ToolCallProtocol = "json" | "tagged";

/**
 * What the parser finds in a reply, in order. Concatenating every `text` and every
 * `raw` gives back the input exactly.
 */
export type ToolCallEvent =
  /** The model's own words (or anything that is not a call): prose, fences of other languages, reasoning, examples. */
  | { readonly type: "text"; readonly text: string }
  /** A complete call to a registered tool, its arguments parsed (and repaired when needed); not yet checked against the schema. */
  | { readonly type: "tool_call"; readonly name: string; readonly arguments: Record<string, unknown>; readonly raw: string }
  /** Something that is meant as a call but cannot run: broken JSON, an unknown tool, a block never closed. `name` is set when it names a registered tool. */
  | { readonly type: "invalid_tool_call"; readonly name?: string; readonly raw: string; readonly error: string };

/** Options of {@link createToolCallParser} and {@link parseToolCalls}. */
export interface ToolCallParserOptions {
  /** `json`: `{"tool": "...", "arguments": {...}}` objects, bare or in a ```json fence. `tagged`: `<tool_name>{...}</tool_name>` blocks. */
  readonly protocol: ToolCallProtocol;
  /** The tools the model may call (only their names are read): a name that is not here is never a call. */
  readonly tools: readonly { readonly name: string }[];
  /** Parse calls written inside `<think>`, `<thinking>` or `<reasoning>` blocks too. Default false: they are text. */
  readonly keepReasoning?: boolean;
}

/** A streaming parser: feed it the reply as it arrives, then call `end()` once. */
export interface ToolCallParser {
  /** Adds text; returns the events it completes (text that cannot be part of a call, and calls that closed). */
  push(delta: string): ToolCallEvent[];
  /** Ends the reply; returns what was held back (an unclosed call is reported, not run). */
  end(): ToolCallEvent[];
}
