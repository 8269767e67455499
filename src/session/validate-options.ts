import { InvalidOptionsError } from "../core/errors/invalid-options-error.ts";
import type { ModelClient } from "../model/model-client.ts";

/** The slots of the system prompt template (`prompts/system.md`, or `systemPromptTemplate`). */
export const SYSTEM_PROMPT_SLOTS = ["max_output_chars", "context_description", "tools_section", "extra_sections", "example"] as const;

/** What {@link validateSessionOptions} checks; the session's own options, before defaults for the rest. */
export interface CheckedSessionOptions {
  readonly question: unknown;
  readonly model: unknown;
  readonly maxIterations: unknown;
  readonly timeoutMs: unknown;
  readonly maxToolResultChars: unknown;
  readonly maxNudges: unknown;
  readonly maxTokens: unknown;
  readonly contextWindow: unknown;
  readonly systemPromptTemplate: unknown;
  readonly maxCorrections: unknown;
  /** Whether the session will have extra tools (their section must have a place in the template). */
  readonly hasTools: boolean;
  /** Whether the session will have a repository or sub-calls (their sections go in `{{extra_sections}}`). */
  readonly hasExtraSections: boolean;
}

/**
 * Checks `runSession`'s options before anything starts, throwing
 * {@link InvalidOptionsError} for the first invalid one. A system prompt
 * template may use only the known slots, and must keep the slots that carry
 * this session's tools and sections (else the model would never hear of them).
 */
export function validateSessionOptions(options: CheckedSessionOptions): void {
  const { question, model, maxIterations, timeoutMs, maxToolResultChars, systemPromptTemplate } = options;
  if (typeof question !== "string" || question.trim() === "") invalid("question", "runSession: question must be a non-empty string.");
  if (!isModelClient(model)) invalid("model", "runSession: model must be a ModelClient (an object with complete(request)).");
  if (!Number.isInteger(maxIterations) || (maxIterations as number) < 1) invalid("maxIterations", `runSession: maxIterations must be a positive integer, got ${String(maxIterations)}.`);
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs > 0)) invalid("timeoutMs", `runSession: timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}.`);
  if (!Number.isInteger(maxToolResultChars) || (maxToolResultChars as number) < 1) invalid("maxToolResultChars", `runSession: maxToolResultChars must be a positive integer, got ${String(maxToolResultChars)}.`);
  const { maxNudges } = options;
  if (!Number.isInteger(maxNudges) || (maxNudges as number) < 0) invalid("maxNudges", `runSession: maxNudges must be a whole number ≥ 0, got ${String(maxNudges)}.`);
  if (!Number.isInteger(options.maxTokens) || (options.maxTokens as number) < 1) invalid("maxTokens", `runSession: maxTokens must be a positive integer, got ${String(options.maxTokens)}.`);
  if (options.contextWindow !== undefined && (!Number.isInteger(options.contextWindow) || (options.contextWindow as number) < 1)) invalid("contextWindow", `runSession: contextWindow must be a positive integer (tokens), got ${String(options.contextWindow)}.`);
  if (!Number.isInteger(options.maxCorrections) || (options.maxCorrections as number) < 0) invalid("maxCorrections", `runSession: maxCorrections must be a whole number ≥ 0, got ${String(options.maxCorrections)}.`);
  if (systemPromptTemplate !== undefined) checkTemplate(systemPromptTemplate, options);
}

/** True for an object with a `complete` method. */
export function isModelClient(value: unknown): value is ModelClient {
  return typeof value === "object" && value !== null && typeof (value as ModelClient).complete === "function";
}

function checkTemplate(template: unknown, { hasTools, hasExtraSections }: CheckedSessionOptions): void {
  const known = SYSTEM_PROMPT_SLOTS.map((slot) => `{{${slot}}}`).join(", ");
  if (typeof template !== "string") invalid("systemPromptTemplate", `runSession: systemPromptTemplate must be a string with the slots ${known}.`);
  const used = new Set([...template.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]!));
  const unknown = [...used].filter((slot) => !(SYSTEM_PROMPT_SLOTS as readonly string[]).includes(slot));
  if (unknown.length > 0) invalid("systemPromptTemplate", `runSession: systemPromptTemplate has the unknown slot${unknown.length === 1 ? "" : "s"} ${unknown.map((slot) => `{{${slot}}}`).join(", ")}; the slots are ${known}.`);
  const needed = [...(hasTools ? ["tools_section"] : []), ...(hasExtraSections ? ["extra_sections"] : [])].filter((slot) => !used.has(slot));
  if (needed.length > 0) {
    invalid(
      "systemPromptTemplate",
      `runSession: systemPromptTemplate is missing ${needed.map((slot) => `{{${slot}}}`).join(" and ")}, which ${needed.length === 1 ? "carries" : "carry"} this session's ${needed.map((slot) => (slot === "tools_section" ? "tools" : "repository and sub-call sections")).join(" and ")}; add ${needed.length === 1 ? "it" : "them"} to the template.`,
    );
  }
}

function invalid(option: string, message: string): never {
  throw new InvalidOptionsError({ option, message });
}
