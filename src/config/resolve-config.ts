import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { SandboxBackend } from "../../sandbox/sandbox.ts";
import type { ProtocolName } from "../protocols/protocol-names.ts";
import { ConfigError } from "./config-error.ts";
import { CONFIG_FILE_NAME, CONFIG_KEYS, type ConfigKeyName } from "./config-keys.ts";
import { parseConfigText, validateConfigFile, type ConfigValue } from "./config-schema.ts";

/** Where a value came from. */
export type ConfigSource =
  | { readonly kind: "default" }
  | { readonly kind: "file"; readonly path: string }
  | { readonly kind: "env"; readonly variable: string }
  | { readonly kind: "flag"; readonly flag: string };

/** The effective configuration after layering. Keys without a value anywhere are absent. */
export interface EffectiveConfig {
  readonly model?: string;
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly subModel?: string;
  readonly maxIterations: number;
  readonly budgetUsd?: number;
  readonly maxModelCalls: number;
  readonly timeoutMs?: number;
  readonly requestTimeoutMs?: number;
  readonly temperature?: number;
  readonly maxTokens: number;
  readonly contextWindow?: number;
  readonly stream: boolean;
  readonly trace?: string;
  /** Comma-separated globs, or `none` (see `parseSecretFiles`). */
  readonly secretFiles: string;
  readonly sandbox: SandboxBackend;
  readonly validate: boolean;
  readonly validatorModel?: string;
  readonly validationHooks?: string;
  readonly validationLog?: string;
  readonly protocol: ProtocolName;
  readonly translatorModel?: string;
  /** Comma-separated tool names, `all` or `none`. */
  readonly nlTools?: string;
  readonly backgroundSessions: boolean;
}

/** What {@link resolveConfig} returns: the values, where each came from, and the file read (if any). */
export interface ResolvedConfig {
  readonly values: EffectiveConfig;
  readonly sources: Readonly<Partial<Record<ConfigKeyName, ConfigSource>>>;
  /** The config file that was read, as an absolute path. */
  readonly file?: string;
}

/** Options of {@link resolveConfig}. */
export interface ResolveConfigOptions {
  /** Flag values as the parser gave them (strings, or `true` for switches), keyed by config key. */
  readonly flags?: Partial<Record<ConfigKeyName, string | boolean | undefined>>;
  /** The environment. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** An explicit config file (`--config`); it must exist. */
  readonly configPath?: string;
  /** Where `rlmkit.config.json` is looked for when `configPath` is absent. Default `process.cwd()`. */
  readonly searchDir?: string;
}

/**
 * Layers the configuration: defaults < config file < environment < flags. The file
 * is `configPath` when given, else `rlmkit.config.json` in `searchDir` when present.
 * Throws a {@link ConfigError} naming the file, variable or flag of a bad value.
 *
 * @example
 * const { values, sources } = resolveConfig({ flags: { model: "qwen2.5-coder:7b" }, searchDir: repo });
 * values.maxIterations; // 20 unless set somewhere
 * sources.model; // { kind: "flag", flag: "--model" }
 */
export function resolveConfig({ flags = {}, env = process.env, configPath, searchDir = process.cwd() }: ResolveConfigOptions = {}): ResolvedConfig {
  const values: Partial<Record<ConfigKeyName, ConfigValue>> = {};
  const sources: Partial<Record<ConfigKeyName, ConfigSource>> = {};

  for (const key of CONFIG_KEYS) {
    if (key.defaultValue !== undefined) {
      values[key.name] = key.defaultValue;
      sources[key.name] = { kind: "default" };
    }
  }

  const file = configPath !== undefined ? resolve(configPath) : existsSync(resolve(searchDir, CONFIG_FILE_NAME)) ? resolve(searchDir, CONFIG_FILE_NAME) : undefined;
  if (file !== undefined) {
    const fileValues = readConfigFile(file, configPath !== undefined ? configPath : file);
    for (const [name, value] of Object.entries(fileValues) as [ConfigKeyName, ConfigValue][]) {
      values[name] = value;
      sources[name] = { kind: "file", path: file };
    }
  }

  for (const key of CONFIG_KEYS) {
    const text = key.env ? env[key.env] : undefined;
    if (key.env === undefined || text === undefined || text === "") continue;
    const parsed = parseConfigText(key.kind, text);
    if (!parsed.ok) throw new ConfigError(`environment variable ${key.env}`, [parsed.problem]);
    values[key.name] = parsed.value;
    sources[key.name] = { kind: "env", variable: key.env };
  }

  for (const key of CONFIG_KEYS) {
    const raw = flags[key.name];
    if (raw === undefined || key.flag === undefined) continue;
    let value: ConfigValue;
    if (typeof raw === "boolean") {
      value = raw;
    } else {
      const parsed = parseConfigText(key.kind, raw);
      if (!parsed.ok) throw new ConfigError(key.flag, [parsed.problem]);
      value = parsed.value;
    }
    values[key.name] = value;
    sources[key.name] = { kind: "flag", flag: key.flag };
  }

  return { values: values as unknown as EffectiveConfig, sources, ...(file !== undefined ? { file } : {}) };
}

function readConfigFile(file: string, shownAs: string): Record<string, ConfigValue> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(shownAs, [code === "ENOENT" ? "no such file" : `cannot be read (${code ?? (error as Error).message})`], { cause: error });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(shownAs, [`is not valid JSON (${(error as Error).message})`], { cause: error });
  }
  const checked = validateConfigFile(data);
  if (!checked.ok) throw new ConfigError(shownAs, checked.problems);
  return checked.values as Record<string, ConfigValue>;
}
