import type { SessionEvent } from "../session/events.ts";
import { describeEvent } from "./describe-event.ts";

/** What the progress display knows at a moment. */
export interface ProgressState {
  /** The root session's current turn. */
  readonly iteration: number;
  readonly maxIterations: number;
  /** The last thing that happened, in a few words. */
  readonly lastAction: string;
  /** Prompt plus completion tokens over the whole call tree. */
  readonly tokens: number;
  /** Cost in US dollars, when the events carry one. */
  readonly costUsd?: number;
  readonly elapsedMs: number;
}

/** Renders one progress line, e.g. `turn 3/20 · nav_search("retry") · 12,345 tokens · $0.0123 · 14.2 s`. */
export function formatProgressLine(state: ProgressState): string {
  const parts = [
    state.iteration > 0 ? `turn ${state.iteration}/${state.maxIterations}` : "",
    state.lastAction,
    `${state.tokens.toLocaleString("en-US")} tokens`,
    ...(state.costUsd !== undefined ? [`$${state.costUsd.toFixed(4)}`] : []),
    `${(state.elapsedMs / 1000).toFixed(1)} s`,
  ].filter((part) => part !== "");
  return parts.join(" · ");
}

/** Options of {@link ProgressReporter}. */
export interface ProgressReporterOptions {
  /** Where progress goes (stderr, so stdout keeps only the answer). */
  readonly stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /**
   * `live`: one line redrawn in place with a spinner (for a terminal);
   * `log`: one line per step (for logs, pipes and the demo).
   */
  readonly mode: "live" | "log";
  /** Clock, for tests. Default `performance.now`. */
  readonly now?: () => number;
}

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * Turns session events into progress output: the turn, the last action in a few
 * words, tokens, cost (when the events carry it) and elapsed time. Feed it with
 * `onEvent`; call `stop()` before printing the answer.
 */
export class ProgressReporter {
  readonly #stream: ProgressReporterOptions["stream"];
  readonly #mode: "live" | "log";
  readonly #now: () => number;
  readonly #started: number;
  #iteration = 0;
  #maxIterations = 0;
  #lastAction = "waiting for the model";
  #tokens = 0;
  #costUsd: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #frame = 0;
  #drawn = false;

  constructor({ stream, mode, now = () => performance.now() }: ProgressReporterOptions) {
    this.#stream = stream;
    this.#mode = mode;
    this.#now = now;
    this.#started = now();
    if (mode === "live") {
      this.#timer = setInterval(() => this.#draw(), 120);
      this.#timer.unref();
    }
  }

  /** The current state. */
  get state(): ProgressState {
    return { iteration: this.#iteration, maxIterations: this.#maxIterations, lastAction: this.#lastAction, tokens: this.#tokens, ...(this.#costUsd !== undefined ? { costUsd: this.#costUsd } : {}), elapsedMs: this.#now() - this.#started };
  }

  /** Takes one session event (pass it as `onEvent`). */
  readonly onEvent = (event: SessionEvent): void => {
    const root = (event.depth ?? 0) === 0;
    if (event.type === "session_start" && root) this.#maxIterations = event.maxIterations;
    if (event.type === "model_call") {
      if (root) this.#iteration = event.iteration;
      this.#tokens += event.promptTokens + event.completionTokens;
    }
    // Totals: every model_call, plus llm_query sub-calls (child sessions report their own model_call events).
    if (event.type === "subcall_end" && event.kind === "llm") this.#tokens += event.promptTokens + event.completionTokens;
    const cost = event.type === "model_call" || (event.type === "subcall_end" && event.kind === "llm") ? event.costUsd : undefined;
    if (typeof cost === "number" && cost > 0) this.#costUsd = (this.#costUsd ?? 0) + cost;
    const action = event.type === "feedback" && root ? "waiting for the model" : describeEvent(event);
    if (action === undefined || (this.#mode === "log" && event.type === "code_block")) return;
    this.#lastAction = action;
    if (this.#mode === "log") this.#stream.write(`  ${formatProgressLine(this.state)}\n`);
    else this.#draw();
  };

  /** Stops redrawing and clears the live line. */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    if (this.#mode === "live" && this.#drawn) this.#stream.write("\r\x1b[2K");
    this.#drawn = false;
  }

  #draw(): void {
    const width = Math.max(20, (this.#stream.columns || 100) - 1);
    const line = `${SPINNER[this.#frame++ % SPINNER.length]} ${formatProgressLine(this.state)}`;
    this.#stream.write(`\r\x1b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
    this.#drawn = true;
  }
}
