import type { ModelClient, TokenUsage } from "../model/model-client.ts";
import type { JsonValue } from "../tools/json-schema.ts";
import type { TranslationExample } from "../tools/nl-options.ts";
import type { Tool } from "../tools/tool.ts";
import { validateToolArguments } from "../tools/validate-arguments.ts";
import { clipWithNotice } from "../util/clip.ts";
import { readTranslatorOutput } from "./read-translator-output.ts";
import { renderTranslatorPrompt } from "./translator-prompt.ts";
import { translationSummary } from "./translation-summary.ts";

/** The translator's raw output is quoted in errors up to this many characters. */
export const TRANSLATOR_OUTPUT_CLIP = 300;
/** Default completion token limit of one translation. */
export const DEFAULT_TRANSLATOR_MAX_TOKENS = 1_024;

/** Options of {@link translateToolCall}. */
export interface TranslateToolCallOptions {
  /** The tool to call; its real schema goes into the translator prompt. */
  readonly tool: Tool;
  /** What the main model asked for, in its own words. */
  readonly description: string;
  /** The translator model. */
  readonly model: ModelClient;
  /** Few-shot examples added after the tool's own (`nl.examples`). */
  readonly examples?: readonly TranslationExample[];
  /** Cancels the translator call (the result is then `failed`). */
  readonly signal?: AbortSignal;
  /** Completion token limit of the translator call. Default 1,024. */
  readonly maxTokens?: number;
}

/** One call the translator produced: schema-valid arguments and a one-line summary of them. */
export interface TranslatedCall {
  readonly arguments: Record<string, JsonValue>;
  /** `schedule_type="daily", at="09:00"`: what `[Translated to: …]` shows. */
  readonly summary: string;
}

/** An element of the translator's array that was left out, and why. */
export interface SkippedTranslation {
  /** Its position in the array (0-based). */
  readonly index: number;
  readonly error: string;
}

/** What {@link translateToolCall} resolves to. It never rejects. */
export type TranslateResult = (
  | { readonly status: "translated"; readonly calls: readonly TranslatedCall[]; readonly skipped: readonly SkippedTranslation[] }
  | { readonly status: "clarify"; readonly question: string }
  | { readonly status: "failed"; readonly error: string }
) & {
  /** The translator's reply as it came (absent when the call failed). */
  readonly raw?: string;
  /** The translator call's token usage (absent when it failed). */
  readonly usage?: TokenUsage;
  readonly usageEstimated?: boolean;
};

/**
 * Turns a natural-language description of a call into schema-valid arguments of
 * `tool`, with a translator model prompted with the tool's real JSON Schema and its
 * few-shot examples (`prompts/translator.md`). Markdown fences and reasoning around the
 * translator's JSON are tolerated. An array becomes one call per element, in order;
 * elements that fail the schema are skipped with the reason. The translator may ask
 * back (`{ "error", "clarification_needed" }` → `clarify`). Unreadable output, a
 * translation that fails the schema, or a failed translator call → `failed`, with the
 * raw output clipped. Never rejects.
 *
 * @example
 * const result = await translateToolCall({ tool: setReminder, description: "daily at 09:00 to check email", model });
 * if (result.status === "translated") for (const call of result.calls) await setReminder.handler(call.arguments, context);
 * else if (result.status === "clarify") console.log(result.question);
 */
export async function translateToolCall({ tool, description, model, examples = [], signal, maxTokens = DEFAULT_TRANSLATOR_MAX_TOKENS }: TranslateToolCallOptions): Promise<TranslateResult> {
  if (typeof description !== "string" || description.trim() === "") {
    return { status: "failed", error: `${tool.name}: the description is empty; say what the call should do.` };
  }
  let raw: string;
  let usage: TokenUsage;
  let usageEstimated: boolean;
  let cut: boolean;
  try {
    const response = await model.complete({
      messages: [
        { role: "system", content: renderTranslatorPrompt(tool, examples) },
        { role: "user", content: description },
      ],
      maxTokens,
      temperature: 0,
      ...(signal ? { signal } : {}),
    });
    raw = response.text;
    usage = response.usage;
    usageEstimated = response.usageEstimated === true;
    cut = response.finishReason === "length";
  } catch (error) {
    const reason = signal?.aborted ? "it was stopped" : (error as Error)?.message ?? String(error);
    return { status: "failed", error: `${tool.name}: the translator call failed (${reason}). Try again, or describe the call differently.` };
  }
  const meta = { raw, usage, usageEstimated };
  const quoted = `The translator answered: ${clipWithNotice(raw.trim(), TRANSLATOR_OUTPUT_CLIP)}`;
  // A cut answer is half a translation: repairing its JSON would invent the rest.
  if (cut) return { status: "failed", error: `${tool.name}: the translator's answer was cut at ${maxTokens.toLocaleString("en-US")} tokens. Describe the call more briefly. ${quoted}`, ...meta };
  const output = readTranslatorOutput(raw);
  if (output.kind === "unreadable") {
    return { status: "failed", error: `${tool.name}: ${output.problem}. Describe the call again with more detail. ${quoted}`, ...meta };
  }
  if (output.kind === "clarify") return { status: "clarify", question: output.question, ...meta };
  const calls: TranslatedCall[] = [];
  const skipped: SkippedTranslation[] = [];
  output.items.forEach((item, index) => {
    const check = validateToolArguments(tool, item);
    if (check.ok && item !== null && typeof item === "object" && !Array.isArray(item)) {
      calls.push({ arguments: item, summary: translationSummary(item) });
    } else {
      skipped.push({ index, error: check.ok ? `${tool.name}: element ${index} is not an object of arguments` : check.message.replace(/\.$/, "") });
    }
  });
  if (calls.length === 0) {
    const problems = skipped.map((skip) => (output.array ? `element ${skip.index}: ${skip.error}` : skip.error)).join("; ");
    return { status: "failed", error: `the translation does not fit ${tool.name}'s schema: ${problems}. Describe the call again with the missing or wrong details. ${quoted}`, ...meta };
  }
  return { status: "translated", calls, skipped, ...meta };
}
