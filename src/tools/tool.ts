import type { JsonValue, ToolParameters } from "./json-schema.ts";
import type { NlToolOptions } from "./nl-options.ts";

/**
 * A host function the model's code may call in the intercepted form
 * `const x = name(literal, ...)`. Arguments are matched to `parameters.properties`
 * by position, validated against the schema, and then `handler` runs in the host.
 */
export interface Tool<Args extends Record<string, unknown> = Record<string, any>> {
  /** The name the model calls; a JavaScript identifier. */
  readonly name: string;
  /** One or two sentences for the system prompt. */
  readonly description: string;
  /** A JSON Schema object; the order of `properties` is the positional order. */
  readonly parameters: ToolParameters;
  /** Runs in the host with validated arguments and returns a JSON value. */
  readonly handler: (args: Args, context: ToolCallContext) => JsonValue | Promise<JsonValue>;
  /** Optional one-line example call shown in the prompt, e.g. `const hits = nav_search("retry")`. */
  readonly example?: string;
  /**
   * Lets the model call the tool with one natural-language `description` that a
   * translator model expands into these parameters (see `translateToolCall`):
   * `true`, or the translator's few-shot examples and extra rules.
   */
  readonly nl?: boolean | NlToolOptions;
}

/** What a tool handler is told about the call it is serving. */
export interface ToolCallContext {
  /** The id of the session making the call. */
  readonly sessionId: string;
  /** Aborted when the session ends or times out. */
  readonly signal: AbortSignal;
}
