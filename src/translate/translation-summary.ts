import type { JsonValue } from "../tools/json-schema.ts";
import { clip } from "../util/clip.ts";

/** Each value in a translation summary is cut to this many characters. */
const VALUE_CHARS = 80;

/**
 * One line naming the translated arguments: `schedule_type="daily", at="09:00"`,
 * values as JSON, long ones cut.
 */
export function translationSummary(args: Readonly<Record<string, JsonValue>>): string {
  return Object.entries(args)
    .map(([name, value]) => `${name}=${clip(JSON.stringify(value), VALUE_CHARS)}`)
    .join(", ");
}

/**
 * A tool result as the main model sees it after a translated call: the line
 * `[Translated to: …]`, then the result (as JSON unless it is a string).
 *
 * @example
 * withTranslationNote("schedule_type=\"daily\", at=\"09:00\"", "Reminder set")
 * // '[Translated to: schedule_type="daily", at="09:00"]\nReminder set'
 */
export function withTranslationNote(summary: string, result: JsonValue): string {
  return `[Translated to: ${summary}]\n${typeof result === "string" ? result : JSON.stringify(result)}`;
}
