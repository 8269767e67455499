import { extractCodeBlocks, type CodeBlock } from "../intercept/extract-code-blocks.ts";
import type { ModelResponse } from "../model/model-client.ts";
import { historyCopy, readCutReply } from "./cut-reply.ts";
import { nudgeFor, type Nudge } from "./nudge.ts";
import { readReply } from "./reply-reasoning.ts";

/** One reply, read: what runs, what the history keeps, and what to tell the model. */
export interface ReadTurn {
  /** The reply's reasoning, for the trace; never run. */
  readonly reasoning?: string;
  /** The assistant message the history keeps (without reasoning unless kept, clipped when over-long). */
  readonly historyText: string;
  /** The blocks to run, in order. */
  readonly run: readonly CodeBlock[];
  /** Notes for the feedback after the blocks ran (where a cut reply was cut). */
  readonly notes: readonly string[];
  /** Set when nothing runs: the message for the model, why (for the turn's record), and the nudge when the reply counts as one without code. */
  readonly withoutCode?: { readonly text: string; readonly why: string; readonly nudge?: Nudge };
}

/**
 * Reads a model reply in the order that keeps it safe: reasoning out first
 * (`readReply`), then the fenced blocks of what is left, then what a cut reply may
 * run (`readCutReply`), and a nudge when nothing runs (`nudgeFor`). A reply cut
 * inside its only block is not a reply without code: it is told where it was cut.
 */
export function readTurn(response: ModelResponse, { keepReasoning, maxTokens, parsesAsJs }: { readonly keepReasoning: boolean; readonly maxTokens: number; readonly parsesAsJs: (code: string) => boolean }): ReadTurn {
  const reply = readReply(response, keepReasoning);
  const base = { ...(reply.reasoning !== undefined ? { reasoning: reply.reasoning } : {}), historyText: historyCopy(reply.historyText) };
  const { runnable, skipped } = extractCodeBlocks(reply.text, parsesAsJs);
  const cut = readCutReply(response, runnable, maxTokens);
  if (cut.run.length > 0) return { ...base, run: cut.run, notes: cut.note !== undefined ? [cut.note] : [] };
  if (cut.droppedUnclosed) return { ...base, run: [], notes: [], withoutCode: { text: cut.note!, why: "the reply was cut inside its only block" } };
  const nudge = nudgeFor({ text: reply.text, ...(reply.reasoning !== undefined ? { reasoning: reply.reasoning } : {}), skipped, ...(cut.note !== undefined ? { cutNote: cut.note } : {}) });
  return { ...base, run: [], notes: [], withoutCode: { text: nudge.text, why: `no runnable code: ${nudge.kind}`, nudge } };
}
