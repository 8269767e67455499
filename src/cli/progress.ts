import type { ModelRequestFields, ModelRetryFields, SessionEvent } from "../core/events.ts";
import { describeEvent, servesSubcall } from "./describe-event.ts";
import { describeModelRequest, describeModelRetry } from "./describe-model-call.ts";
import { formatCost, formatTokens } from "./format-usage.ts";

/** What the progress display knows at a moment. */
export interface ProgressState {
  /** The root session's current turn. */
  readonly iteration: number;
  readonly maxIterations: number;
  /** The last thing that happened, or what is being waited on, in a few words. */
  readonly lastAction: string;
  /** Prompt plus completion tokens over the whole call tree, the reply being streamed included. */
  readonly tokens: number;
  /** True when some of `tokens` were estimated from text length (the server reported none, or a reply is still streaming). */
  readonly tokensEstimated?: boolean;
  /** Cost in US dollars of the priced calls, when the events carry one. */
  readonly costUsd?: number;
  /** True once a model without a price was used: the cost is then unknown (or only a lower bound). */
  readonly costUnknown?: boolean;
  readonly elapsedMs: number;
}

/**
 * Renders one progress line, e.g.
 * `turn 3/20 · nav_search("retry") · 12,345 tokens · $0.0123 · 14.2 s` or
 * `turn 1/20 · retry 1/3 after 503, waiting 15 s · ~1,024 tokens · cost unknown · 16.0 s`.
 */
export function formatProgressLine(state: ProgressState): string {
  const costShown = state.costUnknown === true || (state.costUsd !== undefined && state.costUsd > 0);
  const parts = [
    state.iteration > 0 ? `turn ${state.iteration}/${state.maxIterations}` : "",
    state.lastAction,
    formatTokens(state.tokens, state.tokensEstimated === true),
    ...(costShown ? [formatCost(state.costUsd ?? 0, state.costUnknown !== true)] : []),
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
  /** Also print every step as a line of its own (above the live line in `live` mode). Default false. */
  readonly verbose?: boolean;
  /** Clock, for tests. Default `performance.now`. */
  readonly now?: () => number;
}

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** A model call under way: waiting on a request, waiting to retry one, or receiving a streamed reply. */
type PendingCall =
  | { readonly kind: "request"; readonly event: ModelRequestFields & { depth: number }; readonly since: number }
  | { readonly kind: "retry"; readonly event: ModelRetryFields & { depth: number }; readonly until: number }
  | { readonly kind: "output"; readonly tokens: number; readonly action: string; readonly event: { readonly subcallId?: string } };

/**
 * Turns session events into progress output: the turn, the last action in a few
 * words (a request being waited on with its time-out and the flag that changes it,
 * a retry counting down its wait, streamed tokens as they arrive), tokens (`~` when
 * estimated), cost (`cost unknown` for unpriced models) and elapsed time. Feed it
 * with `onEvent`; call `stop()` before printing the answer.
 */
export class ProgressReporter {
  readonly #stream: ProgressReporterOptions["stream"];
  readonly #mode: "live" | "log";
  readonly #verbose: boolean;
  readonly #now: () => number;
  readonly #started: number;
  #iteration = 0;
  #maxIterations = 0;
  #lastAction = "waiting for the model";
  #tokens = 0;
  #tokensEstimated = false;
  #costUsd: number | undefined;
  #costUnknown = false;
  #pending: PendingCall | undefined;
  #timer: NodeJS.Timeout | undefined;
  #frame = 0;
  #drawn = false;

  constructor({ stream, mode, verbose = false, now = () => performance.now() }: ProgressReporterOptions) {
    this.#stream = stream;
    this.#mode = mode;
    this.#verbose = verbose;
    this.#now = now;
    this.#started = now();
    if (mode === "live") {
      this.#timer = setInterval(() => this.#draw(), 120);
      this.#timer.unref();
    }
  }

  /** The current state. */
  get state(): ProgressState {
    const pending = this.#pending;
    const streamed = pending?.kind === "output" ? pending.tokens : 0;
    return {
      iteration: this.#iteration,
      maxIterations: this.#maxIterations,
      lastAction: pending ? this.#describePending(pending) : this.#lastAction,
      tokens: this.#tokens + streamed,
      ...(this.#tokensEstimated || streamed > 0 ? { tokensEstimated: true } : {}),
      ...(this.#costUsd !== undefined ? { costUsd: this.#costUsd } : {}),
      ...(this.#costUnknown ? { costUnknown: true } : {}),
      elapsedMs: this.#now() - this.#started,
    };
  }

  /** Takes one session event (pass it as `onEvent`). */
  readonly onEvent = (event: SessionEvent): void => {
    const root = (event.depth ?? 0) === 0;
    this.#track(event, root);
    const action = event.type === "feedback" && root ? "waiting for the model" : describeEvent(event);
    if (action === undefined) return;
    if (!this.#pending) this.#lastAction = action;
    if (this.#verbose) this.#print(`${((this.#now() - this.#started) / 1000).toFixed(1).padStart(6)} s  ${action}`);
    else if (this.#mode === "log" && event.type !== "code_block" && event.type !== "model_progress") this.#print(formatProgressLine({ ...this.state, lastAction: action }));
    if (this.#mode === "live") this.#draw();
  };

  /** Stops redrawing and clears the live line. */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#clear();
  }

  #track(event: SessionEvent, root: boolean): void {
    switch (event.type) {
      case "session_start":
        if (root) this.#maxIterations = event.maxIterations;
        return;
      case "model_request":
        if (root) this.#iteration = event.iteration;
        this.#pending = { kind: "request", event, since: this.#now() };
        return;
      case "model_retry":
        this.#pending = { kind: "retry", event, until: this.#now() + event.delayMs };
        return;
      case "model_progress":
        this.#pending = { kind: "output", tokens: event.estimatedTokens, action: describeEvent(event) ?? "", event };
        return;
      case "model_call":
        this.#pending = undefined;
        if (root) this.#iteration = event.iteration;
        this.#count(event.promptTokens + event.completionTokens, event.usageEstimated, event.costUsd, event.priced);
        return;
      case "subcall_end":
        // Totals: every model_call, plus llm_query sub-calls (child sessions report their own model_call events).
        if (event.kind === "llm") this.#count(event.promptTokens + event.completionTokens, false, event.costUsd, undefined);
        if (this.#pending?.event.subcallId === event.subcallId) this.#pending = undefined;
        return;
      case "error":
      case "session_end":
        this.#pending = undefined;
        return;
      default:
        return;
    }
  }

  #count(tokens: number, estimated: boolean, costUsd: number | undefined, priced: boolean | undefined): void {
    this.#tokens += tokens;
    if (estimated) this.#tokensEstimated = true;
    if (priced === false) this.#costUnknown = true;
    if (typeof costUsd === "number" && costUsd > 0) this.#costUsd = (this.#costUsd ?? 0) + costUsd;
  }

  #describePending(pending: PendingCall): string {
    if (pending.kind === "output") return pending.action;
    const sub = `${pending.event.depth > 0 ? `sub-call ${pending.event.depth}: ` : ""}${servesSubcall(pending.event)}`;
    if (pending.kind === "request") return `${sub}${describeModelRequest(pending.event, this.#now() - pending.since)}`;
    return `${sub}${describeModelRetry(pending.event, pending.until - this.#now())}`;
  }

  /** Writes a line of its own, keeping the live line below it. */
  #print(line: string): void {
    this.#clear();
    this.#stream.write(`  ${line}\n`);
  }

  #clear(): void {
    if (this.#mode === "live" && this.#drawn) this.#stream.write("\r\x1b[2K");
    this.#drawn = false;
  }

  #draw(): void {
    if (this.#timer === undefined) return;
    const width = Math.max(20, (this.#stream.columns || 100) - 1);
    const line = `${SPINNER[this.#frame++ % SPINNER.length]} ${formatProgressLine(this.state)}`;
    this.#stream.write(`\r\x1b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
    this.#drawn = true;
  }
}
