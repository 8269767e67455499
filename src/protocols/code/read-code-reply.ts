import { parseGuest } from "../../../sandbox/index.ts";
import type { ReadReply, ReadReplyInput } from "../../engine/protocol.ts";
import { extractCodeBlocks } from "../../intercept/extract-code-blocks.ts";
import { readReplyText } from "../reply-reasoning.ts";
import { historyCopy, readCutReply } from "./cut-reply.ts";
import { nudgeFor } from "./nudge.ts";

/**
 * Reads a reply of the `code` protocol in the order that keeps it safe: reasoning
 * out first (`readReplyText`), then the fenced JavaScript blocks of what is left
 * (each a `code` action), then what a cut reply may run (`readCutReply`), and a
 * nudge when nothing runs (`nudgeFor`). A reply cut inside its only block is not a
 * reply without code: it is told where it was cut. `words` is the reply without its
 * reasoning, blocks included.
 */
export function readCodeReply({ response, keepReasoning, maxTokens }: ReadReplyInput): ReadReply {
  const reply = readReplyText(response, keepReasoning);
  const base = { ...(reply.reasoning !== undefined ? { reasoning: reply.reasoning } : {}), words: reply.text, history: { role: "assistant" as const, content: historyCopy(reply.historyText) } };
  const { runnable, skipped } = extractCodeBlocks(reply.text, parsesAsJavaScript);
  const cut = readCutReply(response, runnable, maxTokens);
  if (cut.run.length > 0) {
    const actions = cut.run.map((block, index) => ({ kind: "code" as const, index, language: block.language, code: block.code, unclosed: block.unclosed }));
    return { ...base, actions, notes: cut.note !== undefined ? [cut.note] : [] };
  }
  if (cut.droppedUnclosed) return { ...base, actions: [], notes: [], withoutActions: { text: cut.note!, why: "the reply was cut inside its only block" } };
  const nudge = nudgeFor({ text: reply.text, ...(reply.reasoning !== undefined ? { reasoning: reply.reasoning } : {}), skipped, ...(cut.note !== undefined ? { cutNote: cut.note } : {}) });
  return { ...base, actions: [], notes: [], withoutActions: { text: nudge.text, why: `no runnable code: ${nudge.kind}`, nudge } };
}

// A ts block runs when it parses as JavaScript.
function parsesAsJavaScript(code: string): boolean {
  try {
    parseGuest(code);
    return true;
  } catch {
    return false;
  }
}
