export { readTranslatorOutput, type TranslatorOutput } from "./read-translator-output.ts";
export { DEFAULT_TRANSLATOR_MAX_TOKENS, translateToolCall, TRANSLATOR_OUTPUT_CLIP, type SkippedTranslation, type TranslateResult, type TranslateToolCallOptions, type TranslatedCall } from "./translate-tool-call.ts";
export { translationSummary, withTranslationNote } from "./translation-summary.ts";
export { GENERATED_PROMPT_NOTICE, generatedTranslatorPrompt, nlOptionsOf, renderTranslatorPrompt } from "./translator-prompt.ts";
export { nlTool, type NlToolTranslator, type TranslationRequest } from "./nl-tool.ts";
