import { splitReasoning } from "../model/split-reasoning.ts";
import type { JsonValue } from "../tools/json-schema.ts";
import { parseJsonText } from "../toolcalls/parse-json-text.ts";

/** What a translator's reply holds once reasoning and fences are taken off. */
export type TranslatorOutput =
  | { readonly kind: "calls"; readonly items: readonly JsonValue[]; readonly array: boolean }
  | { readonly kind: "clarify"; readonly question: string }
  | { readonly kind: "unreadable"; readonly problem: string };

const FENCE = /^```[\w-]*[ \t]*\n([\s\S]*?)\n?```\s*$/;

/**
 * Reads a translator's reply: reasoning (`<think>` blocks) is dropped, one Markdown
 * fence around the JSON is tolerated, what small models get wrong in JSON is
 * repaired (`parseJsonText`: trailing commas, single quotes), and the JSON is an object (one call), an
 * array (one call per element) or `{ "error", "clarification_needed" }` (a
 * question for the main model).
 */
export function readTranslatorOutput(reply: string): TranslatorOutput {
  const text = unfence(splitReasoning(reply).text.trim());
  if (text === "") return { kind: "unreadable", problem: "the translator answered with nothing" };
  // Lenient, as for tool calls: trailing commas, single quotes and unquoted keys are repaired.
  const parsed = parseJsonText(text);
  if (!parsed.ok || (typeof parsed.value === "string" && parsed.repaired)) return { kind: "unreadable", problem: `the translator's answer is not JSON${parsed.ok ? "" : ` (${parsed.error})`}` };
  const value = parsed.value as JsonValue;
  if (Array.isArray(value)) {
    if (value.length === 0) return { kind: "unreadable", problem: "the translator answered with an empty array" };
    return { kind: "calls", items: value, array: true };
  }
  if (value === null || typeof value !== "object") return { kind: "unreadable", problem: `the translator answered with ${value === null ? "null" : typeof value}, not a JSON object` };
  if ("clarification_needed" in value || ("error" in value && Object.keys(value).every((key) => key === "error" || key === "clarification_needed"))) {
    const question = value.clarification_needed ?? value.error;
    return { kind: "clarify", question: typeof question === "string" && question.trim() !== "" ? question.trim() : "Please describe the call in more detail." };
  }
  return { kind: "calls", items: [value], array: false };
}

/** The text inside one Markdown fence that wraps the whole reply, or the reply itself. */
function unfence(text: string): string {
  const match = FENCE.exec(text);
  return match ? match[1]!.trim() : text;
}
