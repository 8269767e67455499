import type { PromptSetup } from "../../engine/protocol.ts";
import { loadPrompt, renderPrompt } from "../../prompts/prompts.ts";

/** The line that says how to answer: a reply without a call, or a call of the final-answer tool. */
export function answerRule(finalAnswerTool: string | undefined): string {
  return finalAnswerTool === undefined ? loadPrompt("native-answer-text") : renderPrompt(loadPrompt("native-answer-tool"), { final_answer_tool: finalAnswerTool });
}

/**
 * The system prompt of a `native` session (`prompts/native-system.md`): how calls and
 * answers work, the input, and the repository when there is one. The tools themselves
 * are described by the request's `tools`, not in the prompt. A `systemPromptTemplate`
 * replaces the frame and may use the slots `{{answer_rule}}`, `{{context_description}}`
 * and `{{repository}}`.
 */
export function nativeSystemPrompt(setup: PromptSetup, finalAnswerTool: string | undefined): string {
  return renderPrompt(setup.template ?? loadPrompt("native-system"), {
    answer_rule: answerRule(finalAnswerTool),
    context_description: setup.contextDescription,
    repository: setup.hasRepo ? loadPrompt("native-repository") : "",
  });
}
