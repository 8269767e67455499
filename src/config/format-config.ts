import { CONFIG_KEYS } from "./config-keys.ts";
import type { ConfigSource, ResolvedConfig } from "./resolve-config.ts";

/** Shows a secret's last four characters only: `sk-…wxyz`; short secrets are fully hidden. */
export function maskSecret(value: string): string {
  return value.length <= 8 ? "••••" : `${value.slice(0, 3)}…${value.slice(-4)}`;
}

/** Describes where a value came from, e.g. `env OPENAI_BASE_URL` or `file /repo/rlmkit.config.json`. */
export function describeSource(source: ConfigSource | undefined): string {
  if (!source) return "unset";
  switch (source.kind) {
    case "default":
      return "default";
    case "file":
      return `file ${source.path}`;
    case "env":
      return `env ${source.variable}`;
    case "flag":
      return `flag ${source.flag}`;
  }
}

/** One row of the effective configuration, secrets already masked. */
export interface ConfigRow {
  readonly key: string;
  /** The value as shown (masked for secrets); absent when unset. */
  readonly value?: string | number | boolean;
  readonly source: string;
  readonly description: string;
}

/** The effective configuration as rows, in key order, with secrets masked. */
export function configRows(resolved: ResolvedConfig): ConfigRow[] {
  return CONFIG_KEYS.map((key) => {
    const raw = (resolved.values as unknown as Record<string, string | number | boolean | undefined>)[key.name];
    const value = raw === undefined ? undefined : key.secret && typeof raw === "string" ? maskSecret(raw) : raw;
    return { key: key.name, ...(value !== undefined ? { value } : {}), source: describeSource(resolved.sources[key.name]), description: key.description };
  });
}

/** Renders the effective configuration as an aligned table for a terminal. */
export function formatConfigTable(resolved: ResolvedConfig): string {
  const rows = configRows(resolved);
  const shown = rows.map((row) => ({ ...row, text: row.value === undefined ? "-" : typeof row.value === "string" ? row.value : JSON.stringify(row.value) }));
  const keyWidth = Math.max(...shown.map((row) => row.key.length));
  const valueWidth = Math.min(48, Math.max(...shown.map((row) => row.text.length)));
  // An unset value says what happens instead (its description names the fallback).
  const lines = shown.map((row) => `${row.key.padEnd(keyWidth)}  ${row.text.padEnd(valueWidth)}  ${row.source === "unset" ? `unset: ${row.description}` : row.source}`);
  const header = resolved.file ? `config file: ${resolved.file}` : "config file: none (looked for rlmkit.config.json)";
  return [header, "", ...lines].join("\n");
}
