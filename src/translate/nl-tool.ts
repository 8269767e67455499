import type { ModelClient } from "../model/model-client.ts";
import type { JsonValue } from "../tools/json-schema.ts";
import type { Tool, ToolCallContext } from "../tools/tool.ts";
import { defineTool } from "../tools/define-tool.ts";
import { nlOptionsOf } from "./translator-prompt.ts";
import { translateToolCall, type TranslateResult } from "./translate-tool-call.ts";
import { withTranslationNote } from "./translation-summary.ts";

/** What an NL tool asks its translator to do. */
export interface TranslationRequest {
  readonly tool: Tool;
  readonly description: string;
  readonly signal: AbortSignal;
}

/** Options of {@link nlTool}: a translator model, or a function that translates (a session's, which counts the call in its budget and trace). */
export type NlToolTranslator = { readonly model: ModelClient } | { readonly translate: (request: TranslationRequest) => Promise<TranslateResult> };

const DEFAULT_DESCRIBE = "The call in words: everything it needs (what, when, how many, which); a translator turns it into the tool's arguments.";

/**
 * Offers `tool` by description: the returned tool has the same name and one
 * `description` parameter (in code: `const r = set_reminder("daily at 09:00 to check
 * email")`). Each call is translated (`translateToolCall`); every translated call
 * runs the real tool in order, and its result comes back prefixed with
 * `[Translated to: …]`. A question from the translator or a failed translation is
 * the tool's result, so the model can say more and call again.
 */
export function nlTool(tool: Tool, translator: NlToolTranslator): Tool {
  const translate = "translate" in translator ? translator.translate : (request: TranslationRequest) => translateToolCall({ ...request, model: translator.model });
  return defineTool({
    name: tool.name,
    description: `${tool.description} Described in words.`,
    parameters: {
      type: "object",
      properties: { description: { type: "string", minLength: 1, description: nlOptionsOf(tool).describe ?? DEFAULT_DESCRIBE } },
      required: ["description"],
      additionalProperties: false,
    },
    example: `const result = ${tool.name}("…what the call should do, in words…")`,
    handler: async ({ description }, context: ToolCallContext): Promise<JsonValue> => {
      const result = await translate({ tool, description: description as string, signal: context.signal });
      if (result.status === "clarify") return `[Translation needs clarification] ${result.question} Call ${tool.name} again with a fuller description.`;
      if (result.status === "failed") return `[Translation failed] ${result.error}`;
      const parts: string[] = [];
      for (const call of result.calls) parts.push(withTranslationNote(call.summary, await tool.handler(call.arguments, context)));
      for (const skip of result.skipped) parts.push(`[Skipped part ${skip.index + 1} of the translation: ${skip.error}]`);
      return parts.join("\n---\n");
    },
  });
}
