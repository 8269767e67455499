import type { SessionEvent } from "../core/events.ts";
import type { SessionResult } from "../core/session-result.ts";
import { clip } from "../util/clip.ts";
import { formatCost, formatTokens } from "./format-usage.ts";

/** Turns shown in full in a summary; earlier ones are counted in one line. */
const SHOWN_TURNS = 12;
/** Steps shown for one turn; the rest are counted. */
const SHOWN_STEPS = 4;

/**
 * Collects what a run did, turn by turn, from its events, and prints it as a
 * short summary once the run ends, so that the progress line disappearing does
 * not leave a person blind:
 *
 * ```
 * final · 3 turns · ~4,321 tokens (estimated) · cost unknown · 12.3 s
 *   turn 1: nav_search("retry"), nav_read("RetryPolicy.next")
 *   turn 2: block 1 failed: TypeError: x is not defined
 *   turn 3: FINAL
 *   model retries: 2 (503, 503)
 *   trace: /tmp/run.jsonl
 * ```
 */
export class RunSummary {
  readonly #turns = new Map<number, { readonly steps: string[]; blocks: number; replied: boolean }>();
  readonly #retries: string[] = [];
  #degraded: string | undefined;

  /** Takes one session event (pass it as `onEvent`). Only the root session's turns are listed; its sub-calls are counted. */
  readonly onEvent = (event: SessionEvent): void => {
    if (event.type === "protocol_degraded" && (event.depth ?? 0) === 0) this.#degraded = `${event.from} → ${event.to} (${clip(event.reason, 100)})`;
    if (event.type === "model_retry") {
      this.#retries.push(event.status !== undefined ? String(event.status) : event.failure);
      return;
    }
    if ((event.depth ?? 0) !== 0 || !("iteration" in event) || event.iteration === undefined || event.iteration < 1) return;
    let turn = this.#turns.get(event.iteration);
    if (!turn) this.#turns.set(event.iteration, (turn = { steps: [], blocks: 0, replied: false }));
    if (event.type === "code_block") turn.blocks++;
    if (event.type === "model_call") turn.replied = true;
    const step = describeStep(event);
    if (step === undefined) return;
    const { steps } = turn;
    // llm_query in a loop: one entry with a count, not one per call.
    const last = steps.at(-1);
    const repeated = last?.match(/^(\d+)× (.*)$/);
    if (last === step) steps[steps.length - 1] = `2× ${step}`;
    else if (repeated && repeated[2] === step) steps[steps.length - 1] = `${Number(repeated[1]) + 1}× ${step}`;
    else steps.push(step);
  };

  /** The summary of a finished run: a header line (status, turns, tokens, cost, time), one line per turn, retries and the trace. */
  format(result: SessionResult, { tracePath }: { readonly tracePath?: string } = {}): string {
    const lines = [formatRunHeader(result)];
    const turns = [...this.#turns.entries()].sort(([a], [b]) => a - b);
    const hidden = turns.length - SHOWN_TURNS;
    if (hidden > 0) lines.push(`  … ${hidden} earlier turn${hidden === 1 ? "" : "s"}`);
    for (const [turn, { steps, blocks, replied }] of turns.slice(Math.max(0, hidden))) {
      const more = steps.length - SHOWN_STEPS;
      const said =
        steps.length > 0 ? `${steps.slice(0, SHOWN_STEPS).join(", ")}${more > 0 ? `, +${more} more` : ""}` : blocks > 0 ? `ran ${blocks} block${blocks === 1 ? "" : "s"}` : replied ? "no code to run" : "no reply from the model";
      lines.push(`  turn ${turn}: ${said}`);
    }
    if (this.#degraded) lines.push(`  protocol: ${this.#degraded}`);
    if (this.#retries.length > 0) lines.push(`  model retries: ${this.#retries.length} (${clip(this.#retries.join(", "), 60)})`);
    if (tracePath) lines.push(`  trace: ${tracePath}`);
    return `${lines.join("\n")}\n`;
  }
}

/**
 * The first line of a summary: status, turns, tokens (`~… (estimated)` when the
 * server reported none), cost (`cost unknown` without a price) and time, e.g.
 * `final · 3 turns · 4,321 tokens · $0.0123 · 12.3 s`.
 */
export function formatRunHeader(result: SessionResult): string {
  const { usage } = result;
  return [
    result.status,
    `${result.iterations} turn${result.iterations === 1 ? "" : "s"}`,
    `${formatTokens(usage.promptTokens + usage.completionTokens, usage.estimated === true)}${usage.estimated === true ? " (estimated)" : ""}`,
    // No model call, no cost to speak of.
    usage.modelCalls > 0 ? formatCost(usage.costUsd, usage.costKnown !== false) : "",
    `${(result.durationMs / 1000).toFixed(1)} s`,
  ]
    .filter((part) => part !== "")
    .join(" · ");
}

/** One step of a turn in a few words, or undefined when it is not worth a mention. */
function describeStep(event: SessionEvent): string | undefined {
  switch (event.type) {
    case "tool_call": {
      const first = event.args.length > 0 ? clip(JSON.stringify(event.args[0]) ?? "undefined", 40) : "";
      return `${event.tool}(${first}${event.args.length > 1 ? ", …" : ""})${event.error ? " failed" : ""}`;
    }
    case "intercept_rejected":
      return `block ${event.index + 1} rejected`;
    case "sandbox_result":
      if (event.error) return `block ${event.index + 1} failed: ${clip(`${event.error.name}: ${event.error.message}`, 70)}`;
      return event.final ? "FINAL" : undefined;
    case "subcall_start":
      return event.kind === "rlm" ? "rlm_query" : "llm_query";
    default:
      return undefined;
  }
}
