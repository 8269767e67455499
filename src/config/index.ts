export { CONFIG_FILE_NAME, CONFIG_KEYS, type ConfigKey, type ConfigKeyName, type ConfigValueKind } from "./config-keys.ts";
export { ConfigError } from "./config-error.ts";
export { configFileSchema, kindSchema, parseConfigText, validateConfigFile, type ConfigFileValues, type ConfigValue } from "./config-schema.ts";
export { resolveConfig, type ConfigSource, type EffectiveConfig, type ResolveConfigOptions, type ResolvedConfig } from "./resolve-config.ts";
export { configRows, describeSource, formatConfigTable, maskSecret, type ConfigRow } from "./format-config.ts";
