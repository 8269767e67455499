import { editDistance } from "../util/edit-distance.ts";
import { createRequire } from "node:module";
import type { z as Zod } from "zod";
import { CONFIG_KEYS, type ConfigKeyName, type ConfigValueKind } from "./config-keys.ts";
import { clip } from "../util/clip.ts";
import { SANDBOX_BACKENDS, type SandboxBackend } from "../../sandbox/sandbox.ts";
import { PROTOCOL_NAMES, type ProtocolName } from "../protocols/protocol-names.ts";

/** A configuration value, as read from the file, the environment or a flag. */
export type ConfigValue = string | number | boolean;

/** The values of `rlmkit.config.json`; every key is optional. */
export type ConfigFileValues = Partial<Record<ConfigKeyName, ConfigValue>>;

const KIND_WORDS: Record<ConfigValueKind, string> = {
  string: "a string",
  url: "an http(s) URL string",
  "positive-integer": "a positive integer",
  "positive-number": "a positive number",
  number: "a number",
  boolean: "true or false",
  "sandbox-backend": SANDBOX_BACKENDS.map((backend) => `"${backend}"`).join(" or "),
  protocol: PROTOCOL_NAMES.map((name) => `"${name}"`).join(", "),
};

let zod: typeof Zod | undefined;
/**
 * zod, loaded on first use: a command line that has no value to check (`rlmkit
 * --help`, `rlmkit config` with nothing set) starts without it. `require`, because
 * checking is synchronous; zod ships a CommonJS build.
 */
function zodModule(): typeof Zod {
  zod ??= (createRequire(import.meta.url)("zod") as { z: typeof Zod }).z;
  return zod;
}

/** The zod schema for one kind of value. */
export function kindSchema(kind: ConfigValueKind): Zod.ZodType<ConfigValue> {
  const z = zodModule();
  switch (kind) {
    case "string":
      return z.string().min(1);
    case "url":
      return z.string().regex(/^https?:\/\/\S+$/);
    case "positive-integer":
      return z.number().int().positive();
    case "positive-number":
      return z.number().positive();
    case "number":
      return z.number();
    case "boolean":
      return z.boolean();
    case "sandbox-backend":
      return z.enum(SANDBOX_BACKENDS as [SandboxBackend, ...SandboxBackend[]]);
    case "protocol":
      return z.enum(PROTOCOL_NAMES as [ProtocolName, ...ProtocolName[]]);
  }
}

let fileSchema: Zod.ZodType | undefined;
/** The schema of `rlmkit.config.json`: a flat object of known keys, nothing else. */
export function configFileSchema(): Zod.ZodType {
  fileSchema ??= zodModule().strictObject(
    Object.fromEntries(CONFIG_KEYS.map((key) => [key.name, kindSchema(key.kind).optional()])) as Record<ConfigKeyName, Zod.ZodOptional<Zod.ZodType<ConfigValue>>>,
  );
  return fileSchema;
}

/**
 * Validates the parsed JSON of a config file. Returns the values, or one readable
 * problem per bad key: unknown keys with a suggestion, wrong types with what was expected.
 */
export function validateConfigFile(data: unknown): { ok: true; values: ConfigFileValues } | { ok: false; problems: string[] } {
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return { ok: false, problems: [`must be a JSON object like {"model": "gpt-4.1-mini"}, got ${describe(data)}`] };
  }
  const parsed = configFileSchema().safeParse(data);
  if (parsed.success) return { ok: true, values: parsed.data as ConfigFileValues };
  const problems: string[] = [];
  for (const issue of parsed.error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const suggestion = closestKey(key);
        problems.push(`unknown key '${key}'${suggestion ? ` (did you mean '${suggestion}'?)` : ""}; valid keys: ${CONFIG_KEYS.map((entry) => entry.name).join(", ")}`);
      }
      continue;
    }
    const name = String(issue.path[0]);
    const key = CONFIG_KEYS.find((entry) => entry.name === name);
    const value = (data as Record<string, unknown>)[name];
    problems.push(`'${name}' must be ${key ? KIND_WORDS[key.kind] : "valid"}, got ${describe(value)}`);
  }
  return { ok: false, problems: [...new Set(problems)] };
}

/**
 * Parses a string from the environment or a flag into a value of the key's kind.
 * Returns a problem text when it does not fit.
 */
export function parseConfigText(kind: ConfigValueKind, text: string): { ok: true; value: ConfigValue } | { ok: false; problem: string } {
  let candidate: unknown = text;
  if (kind === "positive-integer" || kind === "positive-number" || kind === "number") candidate = text.trim() === "" ? Number.NaN : Number(text);
  if (kind === "boolean") candidate = /^(1|true|yes|on)$/i.test(text) ? true : /^(0|false|no|off)$/i.test(text) ? false : text;
  const parsed = kindSchema(kind).safeParse(candidate);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, problem: `must be ${KIND_WORDS[kind]}, got ${JSON.stringify(text)}` };
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `the string ${JSON.stringify(clip(value, 40))}`;
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value)}`;
}

function closestKey(input: string): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const { name } of CONFIG_KEYS) {
    const distance = editDistance(input.toLowerCase(), name.toLowerCase());
    if (distance < bestDistance) {
      bestDistance = distance;
      best = name;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(input.length / 3)) ? best : undefined;
}
