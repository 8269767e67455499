import { afterGrace, writeOff, type Live } from "./live-isolate.ts";

/** How often the watchdog looks at a running block at most. */
const WATCHDOG_TICK_MS = 100;

/**
 * How long a block may go on after its isolate was disposed (by the watchdog, or by
 * V8's heap limit) before the host gives up on it; the same grace as the process
 * backend's. A few V8 built-ins never check for interrupts (`Array.prototype.fill` or
 * `sort` over tens of millions of elements, parsing a BigInt of millions of digits):
 * `dispose()` cannot stop them, and they may run for minutes. Past this grace the
 * isolate is written off as stuck, so its session goes on with a fresh one.
 */
export const ABANDON_AFTER_MS = 250;

/** Why the watchdog stopped a block. */
export type StopReason = "timeout" | "host-wait";

/** The limits the watchdog holds a block to. */
export interface WatchLimits {
  readonly timeoutMs: number;
  readonly maxHostWaitMs: number;
}

/** The part of a running block's state the watchdog reads: time spent waiting on host functions so far. */
export interface WatchedBlock {
  readonly hostWaitMs: number;
}

/** A running block's watchdog. */
export interface Watchdog {
  /** Why the block was stopped, if it was. */
  reason(): StopReason | undefined;
  /** The block settled: no more checks, and no write-off. */
  stop(): void;
}

/**
 * Disposes the isolate once the block has used its time. Time spent waiting on async
 * host functions does not count, unless the isolate is busy meanwhile (its CPU time
 * is bounded too), and the total wait is capped by `maxHostWaitMs`. A block that has
 * not settled {@link ABANDON_AFTER_MS} after its isolate was disposed (by the watchdog
 * or by the heap limit) is written off as stuck, which rejects `live.broken`.
 */
export function watchBlock(live: Live, limits: WatchLimits, block: WatchedBlock, started: number): Watchdog {
  let reason: StopReason | undefined;
  let timer: NodeJS.Timeout | undefined;
  let abandon: (() => void) | undefined;
  // A disposed isolate ends any wait of the host's for its run (see `Live.endWait`), then gets its grace.
  const writeOffLater = () => {
    live.endWait?.();
    abandon = afterGrace(ABANDON_AFTER_MS, () => writeOff(live, "stuck"));
  };
  const cpuAtStart = live.isolate.cpuTime;
  const check = (): void => {
    // Disposed by the heap limit: the block gets the same grace to settle.
    if (live.isolate.isDisposed) return writeOffLater();
    const now = performance.now();
    const waited = block.hostWaitMs + (live.inFlight > 0 ? now - live.waitingSince : 0);
    const guestLeft = limits.timeoutMs - (now - started - waited);
    const cpuLeft = limits.timeoutMs - Number(live.isolate.cpuTime - cpuAtStart) / 1e6;
    const waitLeft = limits.maxHostWaitMs - waited;
    if (guestLeft <= 0 || cpuLeft <= 0 || waitLeft <= 0) {
      reason = waitLeft <= 0 && guestLeft > 0 && cpuLeft > 0 ? "host-wait" : "timeout";
      live.isolate.dispose();
      return writeOffLater();
    }
    timer = setTimeout(check, Math.max(1, Math.min(guestLeft, cpuLeft, waitLeft, WATCHDOG_TICK_MS)));
  };
  timer = setTimeout(check, Math.min(limits.timeoutMs, WATCHDOG_TICK_MS));
  return {
    reason: () => reason,
    stop: () => {
      clearTimeout(timer);
      abandon?.();
    },
  };
}
