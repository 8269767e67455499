import type { JsonValue } from "./json-schema.ts";

/**
 * One few-shot example for a tool's translator: a description as the main model
 * would write it, and the JSON the translator should answer with — the arguments
 * object, an array of them (one call each), or
 * `{ "error": "missing_info", "clarification_needed": "<question>" }`.
 */
export interface TranslationExample {
  readonly description: string;
  readonly output: JsonValue;
}

/** How a tool is offered by description (`defineTool({ nl })`). */
export interface NlToolOptions {
  /** Few-shot examples embedded in the translator prompt, in order. */
  readonly examples?: readonly TranslationExample[];
  /** Extra rules for the translator, one per line (units, formats, defaults to leave out). */
  readonly instructions?: readonly string[];
  /** What the single `description` parameter shown to the main model says; default: a generic line. */
  readonly describe?: string;
}
