export type { ChatMessage, FinishReason, ModelClient, ModelRequest, ModelResponse, TokenUsage } from "./model-client.ts";
export { reportProgress, type ModelAttemptProgress, type ModelOutputProgress, type ModelProgress, type ModelRetryProgress } from "./model-progress.ts";
export { ScriptedModel, type RecordedModelRequest, type ScriptedModelOptions, type ScriptedReply } from "./scripted-model.ts";
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
