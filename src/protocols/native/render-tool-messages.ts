import type { ActionOutcome } from "../../engine/protocol.ts";
import type { ChatMessage } from "../../model/model-client.ts";

/**
 * The messages that answer a native reply's calls: one `tool` message per call, in
 * call order, answering it by id (providers refuse a history in which a call has no
 * answer). A result is its JSON (a string as it is), marked when it was cut; a failure
 * is `Error: …`. Notes (a cut reply) follow as one user message.
 */
export function renderToolMessages(outcomes: readonly ActionOutcome[], notes: readonly string[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const outcome of outcomes) {
    if (!("ok" in outcome)) continue; // a code block: not a call of this protocol
    const { id, name } = outcome.action;
    messages.push({ role: "tool", toolCallId: id, ...(name !== undefined ? { name } : {}), content: contentOf(outcome) });
  }
  if (notes.length > 0) messages.push({ role: "user", content: notes.join("\n\n") });
  return messages;
}

function contentOf(outcome: Extract<ActionOutcome, { ok: boolean }>): string {
  if (!outcome.ok) return `Error: ${outcome.error}`;
  const text = typeof outcome.value === "string" ? outcome.value : JSON.stringify(outcome.value);
  return outcome.truncated ? `${text}\n[cut: the whole result is ${outcome.chars.toLocaleString("en-US")} characters]` : text;
}
