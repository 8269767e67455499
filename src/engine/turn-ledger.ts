import type { SessionEventInput } from "../core/events.ts";
import type { TurnLedger } from "./hooks.ts";

/** Characters of one output or tool result the ledger keeps. */
export const MAX_LEDGER_OUTPUT_CHARS = 2_000;

type LedgerToolCall = TurnLedger["toolCalls"][number];

/**
 * Records what actually ran in the current turn, for hooks (`HookContext.turn`):
 * tool calls and blocks as the runners report them, sub-calls, child sessions and
 * budget refusals as the session's own events tell. `reset()` starts a new turn.
 */
export class TurnRecorder implements TurnLedger {
  #toolCalls: LedgerToolCall[] = [];
  #outputSeen: string[] = [];
  blocksRun = 0;
  subcallsStarted = 0;
  subcallsFailed = 0;
  childSessionsStarted = 0;
  budgetRefused = false;

  get toolCalls(): readonly LedgerToolCall[] {
    return this.#toolCalls;
  }

  get outputSeen(): readonly string[] {
    return this.#outputSeen;
  }

  /** Starts a new turn: everything recorded so far is forgotten. */
  reset(): void {
    this.#toolCalls = [];
    this.#outputSeen = [];
    this.blocksRun = 0;
    this.subcallsStarted = 0;
    this.subcallsFailed = 0;
    this.childSessionsStarted = 0;
    this.budgetRefused = false;
  }

  /** A tool call ran (or was refused): `output` is its result as JSON, when it had one. */
  recordToolCall(call: LedgerToolCall, output?: string): void {
    this.#toolCalls.push(call);
    if (output !== undefined) this.#see(output);
  }

  /** A block ran in the sandbox and printed `output`. */
  recordBlock(output: string): void {
    this.blocksRun++;
    if (output.length > 0) this.#see(output);
  }

  /** Counts the sub-calls, child sessions and budget refusals among the session's events. */
  observe(event: SessionEventInput): void {
    if (event.type === "subcall_start") {
      this.subcallsStarted++;
      if (event.kind === "rlm" && !event.degraded) this.childSessionsStarted++;
    } else if (event.type === "subcall_end") {
      if (event.error !== undefined || event.refused !== undefined) this.subcallsFailed++;
      if (event.refused !== undefined) this.budgetRefused = true;
    } else if (event.type === "budget_exceeded") {
      this.budgetRefused = true;
    }
  }

  #see(text: string): void {
    this.#outputSeen.push(text.length > MAX_LEDGER_OUTPUT_CHARS ? `${text.slice(0, MAX_LEDGER_OUTPUT_CHARS)}…` : text);
  }
}
