import type { ModelResponse } from "../model/model-client.ts";
import { splitReasoning } from "../model/split-reasoning.ts";

/** A model reply as the session uses it: the part that may run, the reasoning, and what the history keeps. */
export interface ReplyText {
  /** The reply without reasoning: the only text whose code blocks may run. */
  readonly text: string;
  /** The reasoning: the server's reasoning field and any `<think>`-style blocks in the text; absent when there was none. */
  readonly reasoning?: string;
  /** The assistant message the history keeps: `text`, with the reasoning in `<think>` tags before it only when asked to keep it. */
  readonly historyText: string;
}

/**
 * Separates a reply's reasoning from the rest, so that code or `FINAL` written
 * while thinking never runs. By default the reasoning is left out of the history
 * (it is in the trace); `keepReasoning` sends it back in `<think>` tags.
 */
export function readReplyText(response: Pick<ModelResponse, "text" | "reasoning">, keepReasoning: boolean): ReplyText {
  const split = splitReasoning(response.text);
  const parts = [response.reasoning?.trim(), split.reasoning].filter((part): part is string => part !== undefined && part.length > 0);
  const reasoning = parts.length > 0 ? parts.join("\n\n") : undefined;
  const historyText = keepReasoning && reasoning !== undefined ? `<think>\n${reasoning}\n</think>\n\n${split.text}` : split.text;
  return { text: split.text, ...(reasoning !== undefined ? { reasoning } : {}), historyText };
}
