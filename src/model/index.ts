export type { ChatMessage, FinishReason, ModelClient, ModelRequest, ModelResponse, ModelStreamPart, TokenUsage, ToolCall, ToolChoice, ToolSpec } from "./model-client.ts";
export { responseParts, type ResponsePartsOptions } from "./response-parts.ts";
export { ToolsUnsupportedError, type ToolsUnsupportedErrorOptions } from "./tools-unsupported-error.ts";
export { reportProgress, type ModelAttemptProgress, type ModelOutputProgress, type ModelProgress, type ModelRetryProgress } from "./model-progress.ts";
export { ScriptedModel, type RecordedModelRequest, type ScriptedModelOptions, type ScriptedReply, type ScriptedToolCall, type ScriptedTurn } from "./scripted-model.ts";
export {
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  DEFAULT_TIMEOUT_MS,
  OpenAICompatibleModel,
  PLACEHOLDER_API_KEY,
  type ModelRetry,
  type OpenAICompatibleModelOptions,
} from "./openai-compatible-model.ts";
export { ModelCallError, type ModelCallErrorOptions, type ModelCallFailure } from "./model-call-error.ts";
export { ModelConfigurationError } from "./model-configuration-error.ts";
export { ScriptExhaustedError } from "./script-exhausted-error.ts";
export { CHARS_PER_TOKEN, estimateTokens, estimateUsage } from "./estimate-tokens.ts";
export { mapFinishReason } from "./finish-reason.ts";
export { retryAfterMs, retryDelayMs, type RetryDelayOptions } from "./retry-delay.ts";
export { REASONING_TAGS, splitReasoning, type SplitReply } from "./split-reasoning.ts";
