import type { ChatMessage } from "../model/model-client.ts";
import { estimateUsage } from "../model/estimate-tokens.ts";
import { loadPrompt, renderPrompt } from "../prompts/prompts.ts";
import type { Compaction } from "../core/events.ts";

export type { Compaction };

/** Share of the room left for the prompt that is used: the estimate (characters / 4) is rough, and code often tokenizes denser. */
const ESTIMATE_MARGIN = 0.9;
/** When compacting, go down to this share of the budget, so that the history is not compacted again every turn. */
const COMPACT_TO = 0.7;
/** Records of compacted turns may take at most this share of the budget; beyond it, the oldest after the first few are dropped. */
const RECORDS_SHARE = 0.25;
/** Records of the first turns always kept (they usually set up the variables the rest uses). */
const FIRST_RECORDS_KEPT = 3;
/** Turns at the end of the history always kept whole, when they fit. */
export const DEFAULT_KEEP_TURNS = 2;

/** The completion tokens a turn asks for: `requested`, capped at half the context window when it is known, so a reply leaves room for the prompt. */
export function turnMaxTokens(requested: number, contextWindow: number | undefined): number {
  return contextWindow !== undefined ? Math.max(1, Math.min(requested, Math.floor(contextWindow / 2))) : requested;
}

/**
 * Keeps the history within a model's context window. The history is
 * `[system, question, …turns]`: one turn is an assistant reply and the messages
 * that answer it (one user message, or with native tool calling one `tool`
 * message per call, which always stay with the reply that made the calls). Before each call,
 * {@link fit} estimates the prompt; over budget, the oldest turns are replaced by
 * their records (see `turnRecord`) appended to the question, so the system prompt,
 * the question and the last turns stay whole and the roles still alternate.
 * Compaction only moves forward: once compacted, a turn stays compacted.
 */
export class HistoryBudget {
  /** The most prompt tokens a request may carry. */
  readonly budgetTokens: number;
  readonly #records: string[] = [];
  #compacted = 0;

  /**
   * @param contextWindow the model's context window in tokens
   * @param maxTokens the completion tokens each call asks for (room left for the reply)
   */
  constructor(contextWindow: number, maxTokens: number) {
    this.budgetTokens = Math.max(1, Math.floor((contextWindow - maxTokens) * ESTIMATE_MARGIN));
  }

  /** Records what the latest turn ran and what came of it; call once per turn, in order. */
  record(text: string): void {
    this.#records.push(text);
  }

  /**
   * The messages to send: `messages` as they are when they fit, else with the
   * oldest turns compacted, and as a last resort the kept turns cut. Returns
   * the {@link Compaction} when this call compacted or cut anything.
   */
  fit(messages: readonly ChatMessage[]): { readonly messages: readonly ChatMessage[]; readonly compaction?: Compaction } {
    if (messages.length < 2) return { messages };
    const starts = turnStarts(messages);
    const turns = starts.length;
    // Never past the turns there are (a caller may pass a shorter history than before).
    this.#compacted = Math.min(this.#compacted, Math.max(0, turns - 1));
    let view = this.#view(messages, starts, this.#compacted);
    const tokensBefore = estimate(view.messages);
    if (tokensBefore <= this.budgetTokens) return { messages: view.messages };

    const before = this.#compacted;
    const target = Math.floor(this.budgetTokens * COMPACT_TO);
    for (const keep of [DEFAULT_KEEP_TURNS, 1]) {
      while (this.#compacted < turns - keep && estimate(view.messages) > target) view = this.#view(messages, starts, ++this.#compacted);
      if (estimate(view.messages) <= this.budgetTokens) break;
    }
    let sent = view.messages;
    let clippedMessages = 0;
    // Still over: the last turns themselves are too big (a huge output); cut the longest until it fits.
    for (let guard = 0; estimate(sent) > this.budgetTokens && guard < 8; guard++) {
      const copy = [...sent];
      let longest = 2;
      for (let index = 2; index < copy.length; index++) if (copy[index]!.content.length > copy[longest]!.content.length) longest = index;
      const message = copy[longest];
      if (!message) break;
      const excessChars = (estimate(sent) - this.budgetTokens) * 4 + 200;
      const keepChars = Math.max(200, message.content.length - excessChars);
      if (keepChars >= message.content.length) break;
      copy[longest] = { ...message, content: clipMiddle(message.content, keepChars) };
      sent = copy;
      clippedMessages++;
    }
    return {
      messages: sent,
      compaction: { compactedTurns: this.#compacted, newlyCompacted: this.#compacted - before, tokensBefore, tokensAfter: estimate(sent), budgetTokens: this.budgetTokens, clippedMessages, droppedRecords: view.droppedRecords },
    };
  }

  #view(messages: readonly ChatMessage[], starts: readonly number[], compacted: number): { messages: readonly ChatMessage[]; droppedRecords: number } {
    if (compacted === 0) return { messages, droppedRecords: 0 };
    const records = this.#records.slice(0, compacted);
    let dropped = 0;
    const render = () => {
      const shown = dropped === 0 ? records : [...records.slice(0, FIRST_RECORDS_KEPT), `(records of ${dropped} more turns left out)`, ...records.slice(FIRST_RECORDS_KEPT + dropped)];
      return renderPrompt(loadPrompt("compacted-history"), { turns: compacted === 1 ? "Turn 1 was" : `Turns 1–${compacted} were`, records: shown.join("\n") }).trimEnd();
    };
    let note = render();
    const recordBudget = this.budgetTokens * RECORDS_SHARE * 4;
    while (note.length > recordBudget && FIRST_RECORDS_KEPT + dropped < records.length - 1) {
      dropped = Math.min(records.length - 1 - FIRST_RECORDS_KEPT, dropped + Math.max(1, Math.ceil((note.length - recordBudget) / 300)));
      note = render();
    }
    const question = messages[1]!;
    // Whatever precedes the first reply stays; the compacted turns go, each whole.
    const beforeTurns = messages.slice(2, starts[0] ?? messages.length);
    return { messages: [messages[0]!, { ...question, content: `${question.content}\n\n${note}` }, ...beforeTurns, ...messages.slice(starts[compacted] ?? messages.length)], droppedRecords: dropped };
  }
}

/** Where each turn starts: the index of every assistant message after the question. */
function turnStarts(messages: readonly ChatMessage[]): number[] {
  const starts: number[] = [];
  for (let index = 2; index < messages.length; index++) if (messages[index]!.role === "assistant") starts.push(index);
  return starts;
}

/** Keeps the start and the end of a message (feedback ends with notes the model needs), cutting the middle. */
function clipMiddle(text: string, keepChars: number): string {
  const head = Math.ceil(keepChars * 0.6);
  const tail = keepChars - head;
  return `${text.slice(0, head)}\n[… ${(text.length - keepChars).toLocaleString("en-US")} characters cut here to fit the context window …]\n${text.slice(text.length - tail)}`;
}

function estimate(messages: readonly ChatMessage[]): number {
  return estimateUsage(messages, "").promptTokens;
}
