/**
 * rlmkit — recursive language model code agents.
 * This file is the whole public API.
 */
// First, so that an older Node gets one clear error before isolated-vm loads.
export { assertSupportedNode, REQUIRED_NODE_MAJOR } from "./node-version.ts";
export { UnsupportedNodeError } from "./core/errors/unsupported-node-error.ts";
export { InvalidOptionsError } from "./core/errors/invalid-options-error.ts";
export { RepositoryNotFoundError } from "./core/errors/repository-not-found-error.ts";
export { DamagedCacheError } from "./core/errors/damaged-cache-error.ts";
export { HookInvariantError } from "./core/errors/hook-invariant-error.ts";
export { ReadRule, type ReadRefusal, type ReadRefusalReason, type ReadRuleOptions } from "./access/read-rule.ts";
export { DEFAULT_SECRET_FILES, parseSecretFiles } from "./access/secret-files.ts";
export { SYSTEM_PROMPT_SLOTS } from "./session/validate-options.ts";
export { runSession, DEFAULT_MAX_CORRECTIONS, DEFAULT_MAX_ITERATIONS, DEFAULT_MAX_NUDGES, DEFAULT_MAX_TOOL_RESULT_CHARS, type SessionOptions } from "./session/run-session.ts";
export type { SessionSandboxOptions } from "./session/sandbox-backend.ts";
export type { SessionResult, SessionStatus, SessionUsage } from "./core/session-result.ts";
export type { SessionEvent, SessionEventType, EventBase } from "./core/events.ts";
export { loadPrompt, renderPrompt, promptsDirectory } from "./prompts/prompts.ts";
export type { SubcallStartFields, SubcallEndFields, ModelProgressFields, ModelRequestFields, ModelRetryFields, HookEventFields, TranslationEventFields, BackgroundTaskEventFields } from "./core/events.ts";
export type { Action, ActionOutcome, Nudge, PromptSetup, Protocol, ProtocolRequestFields, ReadReply, ReadReplyInput } from "./engine/protocol.ts";
export type { BlockReport } from "./engine/block-report.ts";
export { resolveProtocol, PROTOCOL_NAMES, type ProtocolName } from "./protocols/resolve-protocol.ts";
export type { HookContext, HookMiddleware, HookPoint, SessionHook, TurnLedger } from "./engine/hooks.ts";
export { composeHooks } from "./engine/compose-hooks.ts";
export { MODEL_PROGRESS_INTERVAL_MS } from "./model/model-progress-events.ts";
export {
  BudgetTracker,
  createConcurrencyLimiter,
  DEFAULT_MAX_CHILD_MEMORY_MB,
  DEFAULT_MAX_CHILD_SESSIONS,
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_MODEL_CALLS,
  DEFAULT_MAX_PENDING_PROMPT_CHARS,
  DEFAULT_MAX_PENDING_SUBCALLS,
  DEFAULT_MAX_PROMPT_CHARS,
  DEFAULT_SUBCALL_GRACE_MS,
  MAX_SUBCALL_MAX_TOKENS,
  MAX_SUBCALL_TEMPERATURE,
  DEFAULT_PRICES,
  DEFAULT_SUBCALL_CONCURRENCY,
  DEFAULT_SUBCALL_PROMPT_CHARS,
  DEFAULT_SUBCALL_TIMEOUT_MS,
  findPrice,
  priceCall,
  SubcallCache,
  subcallPromptChars,
  UsageLedger,
  type BudgetHit,
  type BudgetLimitName,
  type BudgetOptions,
  type BudgetReport,
  type ConcurrencyLimiter,
  type LlmQueryOptions,
  type ModelPrice,
  type ModelUsageTotals,
  type PriceTable,
  type SubcallLimits,
  type TreeUsage,
  type UsageTotals,
} from "./subcalls/index.ts";
export {
  createNavTools,
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_READ_CHARS,
  DEFAULT_SEARCH_LIMIT,
  DEFAULT_SEARCH_TIMEOUT_MS,
  defaultIndexCacheDir,
  detectLanguage,
  extractSymbols,
  isNavError,
  navRepoSummary,
  type DirectoryEntry,
  type IndexStats,
  type LanguageSummary,
  type NavError,
  type NavInfo,
  type NavListing,
  type NavOutline,
  type NavReadOptions,
  type NavReadResult,
  type NavRefsOptions,
  type NavSearchOptions,
  type NavSearchResult,
  type NavSymbol,
  type NavTools,
  type NavToolsOptions,
  type OutlineNode,
  type SearchMatch,
  type ReferenceKind,
  type SymbolKind,
  type SymbolSummary,
} from "./nav/index.ts";
export { defineTool } from "./tools/define-tool.ts";
export { checkToolArguments, toolSignature, type ArgumentCheck } from "./tools/tool-arguments.ts";
export { validateToolArguments, type ArgumentError, type ArgumentValidation } from "./tools/validate-arguments.ts";
export {
  createToolCallParser,
  joinTextEvents,
  parseToolCalls,
  rewriteToolCall,
  type RewriteToolCallOptions,
  type RewriteToolCallResult,
  type ToolCallEvent,
  type ToolCallParser,
  type ToolCallParserOptions,
  type ToolCallProtocol,
} from "./toolcalls/index.ts";
export { createJsonProtocol, FAKED_RESULT_STOP } from "./protocols/json/index.ts";
export { createTaggedProtocol, type TaggedProtocolOptions } from "./protocols/tagged/index.ts";
export { createNativeProtocol, type NativeProtocolOptions } from "./protocols/native/index.ts";
export type { Tool, ToolCallContext } from "./tools/tool.ts";
export type { NlToolOptions, TranslationExample } from "./tools/nl-options.ts";
export {
  DEFAULT_TRANSLATOR_MAX_TOKENS,
  generatedTranslatorPrompt,
  nlTool,
  renderTranslatorPrompt,
  translateToolCall,
  translationSummary,
  TRANSLATOR_OUTPUT_CLIP,
  withTranslationNote,
  type SkippedTranslation,
  type TranslateResult,
  type TranslateToolCallOptions,
  type TranslatedCall,
  type NlToolTranslator,
  type TranslationRequest,
} from "./translate/index.ts";
export {
  BACKGROUND_TOOL_NAMES,
  createBackgroundScheduler,
  createBackgroundTools,
  DEFAULT_AWAIT_SECONDS,
  DEFAULT_MAX_BACKGROUND_TASKS,
  SPAWN_SUB_SESSION_PARAMETERS,
  type BackgroundChildRequest,
  type BackgroundScheduler,
  type BackgroundSchedulerOptions,
  type BackgroundTaskSpec,
  type BackgroundTaskState,
  type BackgroundTaskStatus,
  type BackgroundWait,
  type SystemPromptMode,
} from "./background/index.ts";
export type { JsonSchema, JsonValue, ToolParameters } from "./tools/json-schema.ts";
export { extractCodeBlocks, type CodeBlock, type ExtractedBlocks } from "./intercept/extract-code-blocks.ts";
export { interceptBlock, rewriteBlock, ACCEPTED_FORM, type InterceptedCall, type InterceptProblem, type InterceptResult } from "./intercept/intercept-block.ts";
export {
  CHARS_PER_TOKEN,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  DEFAULT_TIMEOUT_MS,
  estimateTokens,
  estimateUsage,
  mapFinishReason,
  ModelCallError,
  ModelConfigurationError,
  OpenAICompatibleModel,
  PLACEHOLDER_API_KEY,
  REASONING_TAGS,
  reportProgress,
  responseParts,
  retryAfterMs,
  retryDelayMs,
  ScriptedModel,
  ScriptExhaustedError,
  splitReasoning,
  ToolsUnsupportedError,
  type ChatMessage,
  type FinishReason,
  type ModelAttemptProgress,
  type ModelCallErrorOptions,
  type ModelCallFailure,
  type ModelClient,
  type ModelOutputProgress,
  type ModelProgress,
  type ModelRequest,
  type ModelResponse,
  type ModelRetry,
  type ModelRetryProgress,
  type ModelStreamPart,
  type OpenAICompatibleModelOptions,
  type RecordedModelRequest,
  type ResponsePartsOptions,
  type RetryDelayOptions,
  type ScriptedModelOptions,
  type ScriptedReply,
  type ScriptedToolCall,
  type ScriptedTurn,
  type SplitReply,
  type TokenUsage,
  type ToolCall,
  type ToolChoice,
  type ToolSpec,
  type ToolsUnsupportedErrorOptions,
} from "./model/index.ts";
export {
  createIsolateSandbox,
  createProcessSandboxFactory,
  DEFAULT_SANDBOX_BACKEND,
  isolateSandboxFactory,
  KILL_GRACE_MS,
  WORKER_BASE_MEMORY_MB,
  type ProcessSandboxFactory,
  type ProcessSandboxOptions,
  SANDBOX_BACKENDS,
  DEFAULT_MAX_OUTPUT_CHARS,
  DEFAULT_MEMORY_LIMIT_MB,
  MAX_FINAL_CHARS,
  DEFAULT_TIMEOUT_MS as DEFAULT_BLOCK_TIMEOUT_MS,
  type ExecutionError,
  type ExecutionResult,
  type GuestValue,
  type HostFunction,
  type Sandbox,
  type SandboxBackend,
  type SandboxFactory,
  type SandboxOptions,
} from "../sandbox/index.ts";
export {
  BUILTIN_HOOK_NAMES,
  CORRECTION_SLOTS,
  createValidator,
  findCitations,
  loadCustomHooks,
  maskSecrets,
  REPETITION_SIMILARITY,
  REPETITION_WINDOW,
  VALIDATION_PHASES,
  VALIDATION_SCOPES,
  type Citation,
  type CustomHookSpec,
  type HookDefinition,
  type HookRequirement,
  type HookSettings,
  type LoadedCustomHooks,
  type ResolvedHook,
  type SuppressedViolation,
  type ValidationInput,
  type ValidationPhase,
  type ValidationResult,
  type ValidationScope,
  type ValidationTurn,
  type Validator,
  type ValidatorOptions,
  type Violation,
  validationHooks,
  type ValidationHooksOptions,
  type ValidationRoundReport,
} from "./validation/index.ts";
