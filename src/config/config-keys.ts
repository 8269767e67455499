import { DEFAULT_MAX_ITERATIONS, DEFAULT_MAX_TOKENS } from "../session/session-defaults.ts";
import { DEFAULT_BASE_URL } from "../model/model-defaults.ts";
import { DEFAULT_MAX_MODEL_CALLS } from "../subcalls/budget-tracker.ts";
import { DEFAULT_SECRET_FILES } from "../access/secret-files.ts";
import { DEFAULT_SANDBOX_BACKEND } from "../../sandbox/sandbox.ts";

/** The kind of value a configuration key holds; drives parsing of environment variables and flags. */
export type ConfigValueKind = "string" | "url" | "positive-integer" | "positive-number" | "number" | "boolean" | "sandbox-backend" | "protocol";

/** One configuration key: its file name, environment variable, flag, type and default. */
export interface ConfigKey {
  /** The key as written in `rlmkit.config.json`. */
  readonly name: ConfigKeyName;
  readonly kind: ConfigValueKind;
  /** The environment variable that sets it, if any. */
  readonly env?: string;
  /** The command-line flag that sets it, if any. */
  readonly flag?: string;
  /** The built-in default, if any. */
  readonly defaultValue?: string | number | boolean;
  /** Masked when printed (`rlmkit config`). */
  readonly secret?: boolean;
  /** One line for `rlmkit config` and the docs. */
  readonly description: string;
}

/** Names of the keys of `rlmkit.config.json`. */
export type ConfigKeyName =
  | "model"
  | "baseUrl"
  | "apiKey"
  | "subModel"
  | "maxIterations"
  | "budgetUsd"
  | "maxModelCalls"
  | "timeoutMs"
  | "requestTimeoutMs"
  | "temperature"
  | "maxTokens"
  | "contextWindow"
  | "stream"
  | "trace"
  | "secretFiles"
  | "sandbox"
  | "validate"
  | "validatorModel"
  | "validationHooks"
  | "validationLog"
  | "protocol"
  | "translatorModel"
  | "nlTools"
  | "backgroundSessions";

/**
 * Every configuration key, in the order `rlmkit config` prints them. Values rise
 * in priority: default < config file < environment < flag.
 */
export const CONFIG_KEYS: readonly ConfigKey[] = [
  { name: "model", kind: "string", env: "RLMKIT_MODEL", flag: "--model", description: "model that writes the code" },
  { name: "baseUrl", kind: "url", env: "OPENAI_BASE_URL", flag: "--base-url", defaultValue: DEFAULT_BASE_URL, description: "OpenAI-compatible server, including /v1" },
  { name: "apiKey", kind: "string", env: "OPENAI_API_KEY", flag: "--api-key", secret: true, description: "API key sent to the server" },
  { name: "subModel", kind: "string", env: "RLMKIT_SUB_MODEL", flag: "--sub-model", description: "model for sub-calls (default: the main model)" },
  { name: "maxIterations", kind: "positive-integer", env: "RLMKIT_MAX_ITERATIONS", flag: "--max-iterations", defaultValue: DEFAULT_MAX_ITERATIONS, description: "model turns before giving up" },
  { name: "budgetUsd", kind: "positive-number", env: "RLMKIT_BUDGET_USD", flag: "--budget-usd", description: "spending cap for the whole call tree, in US dollars" },
  { name: "maxModelCalls", kind: "positive-integer", env: "RLMKIT_MAX_MODEL_CALLS", flag: "--max-model-calls", defaultValue: DEFAULT_MAX_MODEL_CALLS, description: "model calls for the whole call tree (turns, sub-calls, child sessions)" },
  { name: "timeoutMs", kind: "positive-integer", env: "RLMKIT_TIMEOUT_MS", flag: "--timeout-ms", description: "wall-clock limit for the whole session" },
  { name: "requestTimeoutMs", kind: "positive-integer", env: "RLMKIT_REQUEST_TIMEOUT_MS", flag: "--request-timeout-ms", description: "time one model request may take" },
  { name: "temperature", kind: "number", env: "RLMKIT_TEMPERATURE", flag: "--temperature", description: "sampling temperature (server default when unset)" },
  { name: "maxTokens", kind: "positive-integer", env: "RLMKIT_MAX_TOKENS", flag: "--max-tokens", defaultValue: DEFAULT_MAX_TOKENS, description: "completion token limit per model turn (sent as max_tokens)" },
  { name: "contextWindow", kind: "positive-integer", env: "RLMKIT_CONTEXT_WINDOW", flag: "--context-window", description: "the model's context window in tokens; older turns are compacted to fit it" },
  { name: "stream", kind: "boolean", env: "RLMKIT_STREAM", flag: "--stream", defaultValue: false, description: "stream model replies (SSE)" },
  { name: "trace", kind: "string", env: "RLMKIT_TRACE", flag: "--trace", description: "JSONL trace file written during `ask`" },
  { name: "secretFiles", kind: "string", env: "RLMKIT_SECRET_FILES", flag: "--secret-files", defaultValue: DEFAULT_SECRET_FILES.join(","), description: "files never shown to the model, besides .git/ and ignored ones: comma-separated globs, or none" },
  { name: "sandbox", kind: "sandbox-backend", env: "RLMKIT_SANDBOX", flag: "--sandbox", defaultValue: DEFAULT_SANDBOX_BACKEND, description: "where model code runs: process (worker processes; a crashed or runaway block costs only its worker) or isolate (in this process)" },
  { name: "validate", kind: "boolean", env: "RLMKIT_VALIDATE", flag: "--validate", defaultValue: false, description: "run the validation hooks: claimed-but-not-done actions, invented output, answers after failures, ungrounded citations, secrets in tool results" },
  { name: "validatorModel", kind: "string", env: "RLMKIT_VALIDATOR_MODEL", flag: "--validator-model", description: "model that detects and confirms violations (default: the sub-model when one is set, else the deterministic detectors); implies validate" },
  { name: "validationHooks", kind: "string", env: "RLMKIT_VALIDATION_HOOKS", flag: "--validation-hooks", description: "JSON file of custom validation hooks (entries replace built-ins by name); implies validate" },
  { name: "translatorModel", kind: "string", env: "RLMKIT_TRANSLATOR_MODEL", flag: "--translator-model", description: "model that expands tool calls written as descriptions (default: the sub-model)" },
  { name: "nlTools", kind: "string", env: "RLMKIT_NL_TOOLS", flag: "--nl-tools", description: "tools the model calls by description, expanded by the translator model: comma-separated names, all, or none" },
  { name: "backgroundSessions", kind: "boolean", env: "RLMKIT_BACKGROUND_SESSIONS", flag: "--background-sessions", defaultValue: false, description: "give the model spawn_sub_session and await_sub_sessions: child sessions in the background" },
  { name: "validationLog", kind: "string", env: "RLMKIT_VALIDATION_LOG", flag: "--validation-log", description: "SQLite file that gets every validation round (interaction_log table); implies validate" },
  { name: "protocol", kind: "protocol", env: "RLMKIT_PROTOCOL", flag: "--protocol", defaultValue: "code", description: "how the model calls tools: code (JavaScript blocks in a sandbox), json or tagged (calls written in its text), native (the server's tool-calling API; json when the server refuses tools)" },
];

/** The config file looked for in the repository (or the working directory) when `--config` is not given. */
export const CONFIG_FILE_NAME = "rlmkit.config.json";
