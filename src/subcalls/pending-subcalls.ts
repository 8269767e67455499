import type { ResolvedSubcallLimits } from "./subcall-limits.ts";

/** Why a sub-call was stopped: the block that started it ended without awaiting it (at once if it had not started, after the grace if it had). */
export class BlockEndedError extends Error {
  override readonly name = "BlockEndedError";
  /** The grace a started call had after its block ended, in milliseconds; 0 for a call still waiting to start. */
  readonly graceMs: number;

  constructor(graceMs: number) {
    super(
      graceMs === 0
        ? "the block that started this call ended without awaiting it, before the call could start (await every sub-call in the block that starts it)"
        : `the block that started this call ended without awaiting it, and the call was stopped ${graceMs.toLocaleString("en-US")} ms later (await every sub-call in the block that starts it)`,
    );
    this.graceMs = graceMs;
  }
}

/**
 * A sub-call let in: it waits for a slot under `queueSignal` (aborted as soon as
 * its block ends), runs under `signal` (aborted a grace later), and calls
 * `release` once it settled.
 */
export type PendingAdmission = { readonly ok: true; readonly signal: AbortSignal; readonly queueSignal: AbortSignal; release(): void } | { readonly ok: false; readonly message: string };

/**
 * The sub-calls one session has started and not yet seen settle. It refuses a
 * call at once when the session already has `maxPending` calls or
 * `maxPendingPromptChars` characters of prompts pending, and it stops the calls a
 * block left running `graceMs` after that block ended (see {@link endBlock}), so a
 * block that fires thousands of un-awaited calls cannot starve the next one.
 */
export class PendingSubcalls {
  readonly #limits: ResolvedSubcallLimits;
  readonly #session: AbortSignal;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #block = new AbortController();
  #blockQueue = new AbortController();
  #blockCalls = 0;
  #count = 0;
  #chars = 0;

  constructor(limits: ResolvedSubcallLimits, session: AbortSignal) {
    this.#limits = limits;
    this.#session = session;
  }

  /** Calls pending now. */
  get count(): number {
    return this.#count;
  }

  /** Lets in one call whose prompt (or question and value) is `chars` long, or says why not. */
  admit(chars: number): PendingAdmission {
    const { maxPending, maxPendingPromptChars } = this.#limits;
    if (this.#count >= maxPending) {
      return { ok: false, message: `${maxPending.toLocaleString("en-US")} sub-calls are pending already, the most one session may have; await some before starting more` };
    }
    if (this.#chars + chars > maxPendingPromptChars) {
      return { ok: false, message: `the pending sub-calls would hold ${(this.#chars + chars).toLocaleString("en-US")} characters of prompts, over the limit of ${maxPendingPromptChars.toLocaleString("en-US")}; await some before starting more, or send smaller pieces` };
    }
    this.#count++;
    this.#chars += chars;
    this.#blockCalls++;
    let released = false;
    const signal = AbortSignal.any([this.#session, this.#block.signal]);
    return {
      ok: true,
      signal,
      queueSignal: AbortSignal.any([signal, this.#blockQueue.signal]),
      release: () => {
        if (released) return;
        released = true;
        this.#count--;
        this.#chars -= chars;
      },
    };
  }

  /**
   * The running block ended: calls it started that still wait for a slot stop
   * now, calls already running may go on for `graceMs`; both end with a
   * {@link BlockEndedError}. Calls of the next block are not affected.
   */
  endBlock(): void {
    if (this.#blockCalls === 0) return;
    this.#blockCalls = 0;
    const ended = this.#block;
    this.#block = new AbortController();
    this.#blockQueue.abort(new BlockEndedError(0));
    this.#blockQueue = new AbortController();
    if (this.#count === 0) return;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      ended.abort(new BlockEndedError(this.#limits.graceMs));
    }, this.#limits.graceMs);
    this.#timers.add(timer);
  }

  /** Clears pending timers (the session's own signal stops the calls). */
  dispose(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }
}
