import type { JsonValue } from "../../core/json-value.ts";
import type { Detector } from "./detector.ts";

interface SecretPattern {
  readonly kind: string;
  readonly pattern: RegExp;
  /** The capture group holding the secret itself (0: the whole match). */
  readonly group?: number;
}

/** The kinds of secret `credential_redaction` masks, each with its pattern. */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  { kind: "private key", pattern: /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z]+ )*PRIVATE KEY-----|$)/gu },
  { kind: "AWS access key", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/gu },
  { kind: "GitHub token", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b/gu },
  { kind: "API key", pattern: /(?<![A-Za-z0-9_-])sk-(?:proj-|ant-(?:api\d\d-)?)?[A-Za-z0-9_-]{20,}/gu },
  { kind: "Stripe key", pattern: /\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}\b/gu },
  { kind: "Slack token", pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/gu },
  { kind: "Google API key", pattern: /\bAIza[0-9A-Za-z_-]{35}\b/gu },
  { kind: "npm token", pattern: /\bnpm_[A-Za-z0-9]{36}\b/gu },
  { kind: "JSON Web Token", pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/gu },
  { kind: "bearer token", pattern: /\bBearer\s+([A-Za-z0-9._~+/-]{20,}=*)/gu, group: 1 },
  { kind: "password in a URL", pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^:/\s@]+:([^@\s/]{3,})@/gu, group: 1 },
  {
    kind: "secret assignment",
    pattern: /\b(?:api[_-]?key|apikey|secret(?:[_-]?key)?|client[_-]?secret|access[_-]?token|auth[_-]?token|token|password|passwd|pwd)\b["']?\s*[:=]\s*(["'])([^"'\s]{8,})\1/giu,
    group: 2,
  },
];

const PLACEHOLDER = /example|sample|dummy|placeholder|your[_-]?|<[^>]*>|\$\{|\{\{|x{4,}|\*{3,}|\.{3}|changeme|redacted|^(?:password|passwd|secret|token|pass|test|null|none|undefined)$|process\.env|os\.environ|getenv/iu;

/** Masks every secret in `text`; returns the text and the kinds found. */
export function maskSecrets(text: string): { readonly text: string; readonly kinds: readonly string[] } {
  const kinds = new Set<string>();
  let masked = text;
  for (const { kind, pattern, group = 0 } of SECRET_PATTERNS) {
    masked = masked.replace(pattern, (...match: unknown[]) => {
      const whole = match[0] as string;
      const secret = (match[group] as string | undefined) ?? whole;
      if (PLACEHOLDER.test(secret) || new Set(secret).size < 5) return whole;
      kinds.add(kind);
      return whole.replace(secret, `[REDACTED ${kind}]`);
    });
  }
  return { text: masked, kinds: [...kinds] };
}

/**
 * `credential_redaction` (`post_execution`): secrets in a tool result — API
 * keys, tokens, private keys, passwords in URLs or assignments — are masked
 * before the model sees them. Examples and placeholders (`AKIA…EXAMPLE`,
 * `"<your key>"`, `process.env.KEY`) are left alone.
 */
export const detectCredentials: Detector = ({ input }) => {
  if (input.toolResult === undefined) return undefined;
  const kinds = new Set<string>();
  const redacted = mapStrings(input.toolResult, (text) => {
    const result = maskSecrets(text);
    result.kinds.forEach((kind) => kinds.add(kind));
    return result.text;
  });
  if (kinds.size === 0) return undefined;
  return { reason: `the result of ${input.toolCall?.name ?? "the tool"} held ${[...kinds].join(", ")}; masked before the model saw it`, redacted };
};

function mapStrings(value: JsonValue, map: (text: string) => string): JsonValue {
  if (typeof value === "string") return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, map)]));
  return value;
}
