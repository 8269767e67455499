import { Option, type Command } from "commander";
import type { ConfigKeyName } from "../config/config-keys.ts";
import { resolveConfig, type ResolvedConfig } from "../config/resolve-config.ts";
import type { CliIo } from "./cli-io.ts";

/** Flags shared by every command that talks to a model, mapped to configuration keys. */
const MODEL_FLAGS: readonly { readonly key: ConfigKeyName; readonly flags: string; readonly description: string; readonly hidden?: boolean }[] = [
  { key: "model", flags: "--model <name>", description: "model name (RLMKIT_MODEL)" },
  { key: "baseUrl", flags: "--base-url <url>", description: "OpenAI-compatible server including /v1 (OPENAI_BASE_URL)" },
  { key: "apiKey", flags: "--api-key <key>", description: "API key (OPENAI_API_KEY; prefer the variable)" },
  { key: "subModel", flags: "--sub-model <name>", description: "model for sub-calls (RLMKIT_SUB_MODEL)" },
  { key: "maxIterations", flags: "--max-iterations <n>", description: "model turns before giving up (default 20)" },
  { key: "budgetUsd", flags: "--budget-usd <x>", description: "spending cap in US dollars for the whole call tree" },
  { key: "maxModelCalls", flags: "--max-model-calls <n>", description: "model calls for the whole call tree (default 500)" },
  { key: "timeoutMs", flags: "--timeout-ms <ms>", description: "wall-clock limit for the session" },
  { key: "requestTimeoutMs", flags: "--request-timeout-ms <ms>", description: "time one model request may take, streaming included (default 120000)" },
  { key: "temperature", flags: "--temperature <t>", description: "sampling temperature" },
  { key: "maxTokens", flags: "--max-tokens <n>", description: "completion token limit per model call" },
  { key: "contextWindow", flags: "--context-window <tokens>", description: "the model's context window; older turns are compacted to fit it" },
  { key: "stream", flags: "--stream", description: "stream model replies" },
  { key: "sandbox", flags: "--sandbox <backend>", description: "where model code runs: process (default) or isolate (RLMKIT_SANDBOX)" },
  { key: "protocol", flags: "--protocol <name>", description: "how the model calls tools: code (default), json, tagged or native (RLMKIT_PROTOCOL)" },
];

/** Flags of the validation hooks (`ask`, `config`). */
const VALIDATION_FLAGS: readonly { readonly key: ConfigKeyName; readonly flags: string; readonly description: string }[] = [
  { key: "validate", flags: "--validate", description: "run the validation hooks on the model's replies, tool calls and answers (RLMKIT_VALIDATE)" },
  { key: "validatorModel", flags: "--validator-model <name>", description: "model that checks the replies (default: --sub-model, else deterministic checks; RLMKIT_VALIDATOR_MODEL)" },
  { key: "validationHooks", flags: "--validation-hooks <file>", description: "JSON file of custom validation hooks (RLMKIT_VALIDATION_HOOKS)" },
  { key: "validationLog", flags: "--validation-log <file>", description: "SQLite file recording every validation round (RLMKIT_VALIDATION_LOG)" },
];

/** Flags of background sessions and tools called by description (`ask`, `config`). */
const SESSION_TOOL_FLAGS: readonly { readonly key: ConfigKeyName; readonly flags: string; readonly description: string }[] = [
  { key: "backgroundSessions", flags: "--background-sessions", description: "spawn_sub_session and await_sub_sessions: child sessions in the background (RLMKIT_BACKGROUND_SESSIONS)" },
  { key: "nlTools", flags: "--nl-tools <names>", description: "tools the model calls by description: comma-separated names (e.g. spawn_sub_session), all, or none (RLMKIT_NL_TOOLS)" },
  { key: "translatorModel", flags: "--translator-model <name>", description: "model that expands calls written as descriptions (default: --sub-model; RLMKIT_TRANSLATOR_MODEL)" },
];

/** Adds `--config` and the model flags to a command (with `validation`, the validation flags too; with `sessionTools`, those of background sessions and tools by description). */
export function addModelOptions(command: Command, { trace = false, validation = false, sessionTools = false }: { trace?: boolean; validation?: boolean; sessionTools?: boolean } = {}): Command {
  command.option("--config <file>", "configuration file (default: rlmkit.config.json in the repository)");
  for (const flag of MODEL_FLAGS) command.addOption(new Option(flag.flags, flag.description));
  if (trace) command.option("--trace <file>", "write the session's events to this JSONL file (RLMKIT_TRACE)");
  if (validation) for (const flag of VALIDATION_FLAGS) command.addOption(new Option(flag.flags, flag.description));
  if (sessionTools) for (const flag of SESSION_TOOL_FLAGS) command.addOption(new Option(flag.flags, flag.description));
  command.option("--secret-files <globs>", "files never shown to the model besides .git/ and ignored ones: comma-separated globs, or none (RLMKIT_SECRET_FILES)");
  return command;
}

/** Resolves the configuration from a command's parsed options, the environment and the config file. */
export function configFromOptions(options: Record<string, unknown>, io: CliIo, searchDir: string): ResolvedConfig {
  const flags: Partial<Record<ConfigKeyName, string | boolean>> = {};
  for (const { key } of [...MODEL_FLAGS, ...VALIDATION_FLAGS, ...SESSION_TOOL_FLAGS, { key: "trace" as const }, { key: "secretFiles" as const }]) {
    const value = options[key];
    if (typeof value === "string" || typeof value === "boolean") flags[key] = value;
  }
  return resolveConfig({ flags, env: io.env, searchDir, ...(typeof options.config === "string" ? { configPath: options.config } : {}) });
}
