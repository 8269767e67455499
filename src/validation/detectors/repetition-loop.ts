import { splitReasoning } from "../../model/split-reasoning.ts";
import { replyParts } from "../reply-parts.ts";
import type { Detector } from "./detector.ts";

/** Replies at least this similar (by words) to a recent one are a loop. */
export const REPETITION_SIMILARITY = 0.9;
/** How many recent replies are compared. */
export const REPETITION_WINDOW = 3;
const MIN_CHARS = 24;
const MAX_TOKENS = 600;
const LITERALS = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`[^`]*`|\b\d+(?:\.\d+)?\b/gu;

/**
 * `repetition_loop`: the reply is nearly identical (word similarity at least
 * {@link REPETITION_SIMILARITY}) to one of the last {@link REPETITION_WINDOW}
 * replies. Code that differs in a literal — the next chunk, another query —
 * is progress, not a loop.
 */
export const detectRepetitionLoop: Detector = ({ input }) => {
  if (input.reply === undefined || !input.recentReplies?.length) return undefined;
  const reply = splitReasoning(input.reply).text;
  if (reply.trim().length < MIN_CHARS) return undefined;
  const words = tokens(reply);
  const literals = codeLiterals(reply);
  const recent = input.recentReplies.slice(-REPETITION_WINDOW);
  for (let back = recent.length - 1; back >= 0; back--) {
    const earlier = splitReasoning(recent[back]).text;
    if (codeLiterals(earlier) !== literals) continue;
    const similarity = wordSimilarity(words, tokens(earlier));
    if (similarity >= REPETITION_SIMILARITY) {
      const ago = recent.length - back;
      return { reason: `the reply repeats your reply of ${ago} turn${ago === 1 ? "" : "s"} ago almost word for word (similarity ${similarity.toFixed(2)})` };
    }
  }
  return undefined;
};

function tokens(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu) ?? []).slice(0, MAX_TOKENS);
}

function codeLiterals(reply: string): string {
  return replyParts(reply).code.flatMap((code) => code.match(LITERALS) ?? []).join("\u0000");
}

/** 1 − (word edit distance / length of the longer), over at most 600 words each. */
function wordSimilarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return 1 - previous[b.length] / Math.max(a.length, b.length);
}
