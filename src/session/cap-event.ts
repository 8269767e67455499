import type { JsonValue } from "../tools/json-schema.ts";
import type { SessionEvent } from "../core/events.ts";
import { truncateJson } from "../tools/truncate-json.ts";
import { clipWithNotice } from "../util/clip.ts";

/** Characters of one message (an error, a tool failure) an event carries; the rest is cut with a notice. */
export const MAX_EVENT_MESSAGE_CHARS = 4_000;
/** Characters of JSON of an answer an event carries; a larger answer is cut (`answerTruncated`, `answerChars`). */
export const MAX_EVENT_ANSWER_CHARS = 100_000;


/** Cuts an answer for an event; `answerChars` and `answerTruncated` say when it was cut. */
export function capAnswer(answer: JsonValue): { answer: JsonValue; answerChars?: number; answerTruncated?: true } {
  const cut = truncateJson(answer, MAX_EVENT_ANSWER_CHARS);
  return cut.truncated ? { answer: cut.value, answerChars: cut.chars, answerTruncated: true } : { answer };
}

/**
 * Bounds what an event carries from guest code and host faults, so events and
 * traces stay small whatever a block does: error messages are cut to
 * {@link MAX_EVENT_MESSAGE_CHARS} and answers to {@link MAX_EVENT_ANSWER_CHARS}
 * characters of JSON. Output is already cut by the sandbox's `maxOutputChars`.
 */
export function capEvent(event: SessionEvent): SessionEvent {
  const message = (text: string): string => clipWithNotice(text, MAX_EVENT_MESSAGE_CHARS);
  switch (event.type) {
    case "final":
      return { ...event, ...capAnswer(event.answer) };
    case "session_end":
      return { ...event, ...(event.answer !== undefined ? capAnswer(event.answer) : {}), ...(event.error !== undefined ? { error: message(event.error) } : {}) };
    case "sandbox_result":
      return event.error ? { ...event, error: { ...event.error, message: message(event.error.message) } } : event;
    case "tool_call":
    case "subcall_end":
      return event.error !== undefined ? { ...event, error: message(event.error) } : event;
    case "error":
      return { ...event, message: message(event.message) };
    default:
      return event;
  }
}
