import type { ActionOutcome } from "../../engine/protocol.ts";
import type { ChatMessage } from "../../model/model-client.ts";

/**
 * The message that answers a text protocol's calls: one user message with a
 * `Tool Result (name):` section per call, in call order — the result's JSON (a string
 * as it is), marked when it was cut, or `Error: …` — then the notes.
 */
export function renderTextResults(outcomes: readonly ActionOutcome[], notes: readonly string[]): ChatMessage[] {
  const sections: string[] = [];
  for (const outcome of outcomes) {
    if (!("ok" in outcome)) continue; // a code block: not a call of this protocol
    sections.push(`Tool Result (${outcome.action.name ?? "invalid call"}):\n${contentOf(outcome)}`);
  }
  sections.push(...notes);
  return sections.length > 0 ? [{ role: "user", content: sections.join("\n\n") }] : [];
}

function contentOf(outcome: Extract<ActionOutcome, { ok: boolean }>): string {
  if (!outcome.ok) return `Error: ${outcome.error}`;
  const text = typeof outcome.value === "string" ? outcome.value : JSON.stringify(outcome.value);
  return outcome.truncated ? `${text}\n[cut: the whole result is ${outcome.chars.toLocaleString("en-US")} characters]` : text;
}
