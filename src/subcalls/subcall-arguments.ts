import type { GuestValue } from "../../sandbox/index.ts";
import { clampSubcallOptions } from "./subcall-limits.ts";

/** Options the guest may pass to `llm_query` and `llm_query_batched`. */
export interface LlmQueryOptions {
  readonly maxTokens?: number;
  readonly temperature?: number;
}

/**
 * Checks the guest's options object: wrong types and unknown keys throw a
 * `TypeError` naming the function (a bug in the guest's code); values out of range
 * are lowered into it (see `clampSubcallOptions`).
 */
export function checkOptions(name: string, options: GuestValue | undefined): LlmQueryOptions {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object" || Array.isArray(options)) throw new TypeError(`${name}: options must be an object like { maxTokens: 500, temperature: 0 }, got ${describe(options)}.`);
  const result: { maxTokens?: number; temperature?: number } = {};
  for (const [key, value] of Object.entries(options)) {
    if (key === "maxTokens") {
      if (typeof value !== "number" || !Number.isInteger(value) || value < 1) throw new TypeError(`${name}: options.maxTokens must be a positive integer, got ${describe(value)}.`);
      result.maxTokens = value;
    } else if (key === "temperature") {
      if (typeof value !== "number" || value < 0) throw new TypeError(`${name}: options.temperature must be a non-negative number, got ${describe(value)}.`);
      result.temperature = value;
    } else {
      throw new TypeError(`${name}: unknown option '${key}'; the options are maxTokens and temperature.`);
    }
  }
  return clampSubcallOptions(result);
}

/** Names the type of a guest value for error messages. */
export function describe(value: GuestValue | undefined): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? `a string` : typeof value;
}

