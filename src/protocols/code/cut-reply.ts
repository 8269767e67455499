import type { CodeBlock } from "../../intercept/extract-code-blocks.ts";
import type { ModelResponse } from "../../model/model-client.ts";
import { loadPrompt, renderPrompt } from "../../prompts/prompts.ts";

/** The most characters of one reply the history keeps; the trace keeps it whole. */
export const MAX_HISTORY_REPLY_CHARS = 8_000;

/** What to run of a reply that may have been cut, and what to tell the model about the cut. */
export interface CutReply {
  /** The blocks to run: all of them, less an unclosed last block when the reply was cut. */
  readonly run: readonly CodeBlock[];
  /** True when an unclosed last block was left out because the reply was cut. */
  readonly droppedUnclosed: boolean;
  /** The notice for the model (`prompts/cut-reply.md`), when the reply stopped at the token limit. */
  readonly note?: string;
}

/**
 * Decides what runs of a reply the server cut (`finishReason: "length"`): the
 * complete blocks; an unclosed last block is half a thought, so it does not run.
 * A reply that ended normally runs as it is (an unclosed fence there runs to the end).
 */
export function readCutReply(response: Pick<ModelResponse, "finishReason" | "usage">, runnable: readonly CodeBlock[], maxTokens: number): CutReply {
  if (response.finishReason !== "length") return { run: runnable, droppedUnclosed: false };
  const last = runnable.at(-1);
  const droppedUnclosed = last?.unclosed === true;
  const run = droppedUnclosed ? runnable.slice(0, -1) : runnable;
  const parts: string[] = [];
  if (run.length > 0) parts.push(run.length === 1 ? "block 1 was run." : `blocks 1–${run.length} were run.`);
  if (droppedUnclosed) parts.push(`block ${run.length + 1} was cut before its closing fence and was not run.`);
  if (parts.length === 0) parts.push("no ```js block was complete, so nothing ran.");
  const tokens = response.usage.completionTokens > 0 ? response.usage.completionTokens : maxTokens;
  const note = renderPrompt(loadPrompt("cut-reply"), { tokens: tokens.toLocaleString("en-US"), max_tokens: maxTokens.toLocaleString("en-US"), blocks: parts.join(" ") }).trimEnd();
  return { run, droppedUnclosed, note };
}

/** The copy of a reply the history keeps: whole up to {@link MAX_HISTORY_REPLY_CHARS}, else its start and a notice. */
export function historyCopy(text: string, limit = MAX_HISTORY_REPLY_CHARS): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n[… the rest of this reply is left out of the history: ${text.length.toLocaleString("en-US")} characters in all]`;
}
