/**
 * The subset of JSON Schema that tool parameters are written in: the same
 * shape OpenAI function tools use. Any valid JSON Schema keyword is accepted
 * (validation is done by ajv); these fields are the ones rlmkit reads itself.
 */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  default?: unknown;
  additionalProperties?: boolean | JsonSchema;
  [keyword: string]: unknown;
}

export type { JsonValue } from "../core/json-value.ts";

/** The parameters of a tool: a JSON Schema object whose property order is the positional order. */
export interface ToolParameters extends JsonSchema {
  type: "object";
  properties: Record<string, JsonSchema>;
  required?: string[];
}
