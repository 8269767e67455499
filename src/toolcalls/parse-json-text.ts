import { jsonrepair } from "jsonrepair";

/** The outcome of reading JSON a model wrote. */
export type LenientJson = { readonly ok: true; readonly value: unknown; readonly repaired: boolean } | { readonly ok: false; readonly error: string };

/**
 * Parses JSON as a model writes it: strict JSON first, then `jsonrepair` for what
 * models get wrong (trailing commas, single quotes, unquoted keys, raw line breaks
 * in strings, comments, missing closing brackets). With `repair: false` only strict JSON passes.
 */
export function parseJsonText(text: string, { repair = true }: { readonly repair?: boolean } = {}): LenientJson {
  try {
    return { ok: true, value: JSON.parse(text), repaired: false };
  } catch (strictError) {
    if (!repair) return { ok: false, error: (strictError as Error).message };
    try {
      return { ok: true, value: JSON.parse(jsonrepair(text)), repaired: true };
    } catch {
      return { ok: false, error: (strictError as Error).message };
    }
  }
}

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
