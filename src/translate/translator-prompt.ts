import type { Tool } from "../tools/tool.ts";
import type { NlToolOptions, TranslationExample } from "../tools/nl-options.ts";
import { loadPrompt, renderPrompt } from "../prompts/prompts.ts";

/** The marker line that starts every generated translator prompt in `prompts/translators/`. */
export const GENERATED_PROMPT_NOTICE = "<!-- Generated from the tool's definition by `npm run prompts`; do not edit. -->";

/** The translator options of a tool: `{}` for `nl: true` or no `nl`. */
export function nlOptionsOf(tool: Tool): NlToolOptions {
  return typeof tool.nl === "object" && tool.nl !== null ? tool.nl : {};
}

/**
 * The system prompt of `tool`'s translator: `prompts/translator.md` with the tool's
 * real JSON Schema embedded, its extra rules (`nl.instructions`) and its few-shot
 * examples (`nl.examples`, then `extraExamples`). Deterministic: the same tool gives
 * the same text, which is what `npm run prompts` writes to `prompts/translators/`.
 */
export function renderTranslatorPrompt(tool: Tool, extraExamples: readonly TranslationExample[] = []): string {
  const options = nlOptionsOf(tool);
  const examples = [...(options.examples ?? []), ...extraExamples];
  return renderPrompt(loadPrompt("translator"), {
    tool_name: tool.name,
    tool_description: tool.description,
    schema: JSON.stringify(tool.parameters, null, 2),
    instructions: (options.instructions ?? []).map((line) => `- ${line}\n`).join(""),
    examples: examples.length === 0 ? "(none)" : examples.map((example) => `User: ${example.description}\nOutput: ${JSON.stringify(example.output)}`).join("\n\n"),
  });
}

/** The text of `prompts/translators/<tool>.md`: the notice line, then {@link renderTranslatorPrompt}. */
export function generatedTranslatorPrompt(tool: Tool): string {
  return `${GENERATED_PROMPT_NOTICE}\n${renderTranslatorPrompt(tool)}`;
}
