import os from "node:os";
import { Worker } from "node:worker_threads";
import type { LearnedFilters } from "./file-filters.ts";
import type { WorkerMatches } from "./search-matches.ts";
import type { FileShare } from "./search-shares.ts";

/** Search workers started: one per core, at most this many. */
export const MAX_SEARCH_WORKERS = 4;
/** Characters of file text all search workers together keep in memory between searches. */
const CACHE_BUDGET_CHARS = 512 * 1024 * 1024;
/**
 * A worker that spends this much CPU time without progress (one file, 256
 * matches, or 1,024 names) is running a pattern that backtracks
 * catastrophically: the search is run again on the linear-time engine.
 */
export const STALL_MS = 300;

/** One search worker: its thread, its heartbeat (bumped at each step of progress), the replies awaited, and the share of the files it holds. */
export interface Slot {
  readonly worker: Worker;
  readonly heartbeat: Int32Array;
  readonly replies: Map<number, (message: Reply) => void>;
  share?: FileShare;
}

/** A worker's answer to one message. */
export type Reply = { id: number } & Partial<WorkerMatches> & { hits?: number[]; error?: string; filters?: LearnedFilters };

/** A worker spent {@link STALL_MS} of CPU time without progress. */
export class Stalled extends Error {}

/** The deadline of a send passed. */
export class SearchTimeout extends Error {}

/** Why a send was cancelled: the tools were closed. */
export const CANCELLED = "the search was cancelled because the navigation tools were closed";

/**
 * The search worker threads (see search-worker.ts), started when first needed and
 * unref'd, so idle workers never keep the process alive.
 */
export class SearchWorkers {
  readonly #count: number;
  #slots: Slot[] = [];
  #nextId = 1;
  readonly #cancels = new Set<() => void>();

  /** @param count - how many workers the search uses at most (their texts share the memory budget) */
  constructor(count = defaultSearchWorkers()) {
    this.#count = count;
  }

  /** How many workers the search uses at most. */
  get count(): number {
    return this.#count;
  }

  /** Rejects every send in flight (see {@link CANCELLED}). */
  cancelAll(): void {
    for (const cancel of this.#cancels) cancel();
    this.#cancels.clear();
  }

  /**
   * Sends one message to each of the first `count` workers and waits for every reply; rejects
   * with {@link SearchTimeout} at `deadline`, with {@link Stalled} when `watchStalls` and a worker
   * spends {@link STALL_MS} of CPU time without progress, and when {@link cancelAll} is called.
   * A background request (a preload) does not keep the process alive: its timer is unref'd (and the workers always are).
   */
  async send(count: number, message: (slot: Slot, index: number) => object, deadline: number, watchStalls: boolean, background = false): Promise<Reply[]> {
    const slots = this.ensure(count);
    const id = this.#nextId++;
    let timer: NodeJS.Timeout | undefined;
    let watcher: NodeJS.Timeout | undefined;
    let cancel: (() => void) | undefined;
    try {
      return await new Promise<Reply[]>((resolve, reject) => {
        const replies: Reply[] = new Array(slots.length);
        let missing = slots.length;
        const last = slots.map((slot) => ({ beat: Atomics.load(slot.heartbeat, 0), cpuMs: -1, done: false }));
        cancel = () => reject(new Error(CANCELLED));
        this.#cancels.add(cancel);
        slots.forEach((slot, index) => {
          slot.replies.set(id, (reply) => {
            slot.replies.delete(id);
            replies[index] = reply;
            last[index].done = true;
            if (--missing === 0) resolve(replies);
          });
          slot.worker.postMessage({ ...message(slot, index), id });
        });
        timer = setTimeout(() => reject(new SearchTimeout()), Math.max(0, deadline - Date.now()));
        if (background) timer.unref();
        if (watchStalls) {
          // A stall is CPU time without progress, so a worker merely waiting for a busy machine is not taken for one.
          watcher = setInterval(() => {
            slots.forEach(async (slot, index) => {
              const beat = Atomics.load(slot.heartbeat, 0);
              const state = last[index];
              if (state.done) return;
              const usage = await slot.worker.cpuUsage().catch(() => undefined);
              if (!usage) return;
              const cpuMs = (usage.user + usage.system) / 1000;
              if (beat !== state.beat || state.cpuMs < 0) {
                state.beat = beat;
                state.cpuMs = cpuMs;
              } else if (cpuMs - state.cpuMs >= STALL_MS) {
                reject(new Stalled());
              }
            });
          }, STALL_MS / 4);
        }
      });
    } finally {
      clearTimeout(timer);
      clearInterval(watcher);
      if (cancel) this.#cancels.delete(cancel);
      for (const slot of slots) slot.replies.delete(id);
    }
  }

  /** The first `count` workers, started as needed. */
  ensure(count: number): Slot[] {
    while (this.#slots.length < count) {
      const heartbeat = new Int32Array(new SharedArrayBuffer(4));
      const extension = import.meta.url.endsWith(".ts") ? "ts" : "js";
      const worker = new Worker(new URL(`./search-worker.${extension}`, import.meta.url), {
        workerData: { heartbeat, cacheBudgetChars: Math.floor(CACHE_BUDGET_CHARS / this.#count) },
      });
      const slot: Slot = { worker, heartbeat, replies: new Map() };
      worker.on("message", (reply: Reply) => slot.replies.get(reply.id)?.(reply));
      worker.on("error", (error) => {
        this.#slots = this.#slots.filter((other) => other !== slot);
        for (const deliver of [...slot.replies.values()]) deliver({ id: 0, error: `search failed: ${error.message}` });
      });
      // Unref'd after the listeners are added (adding a 'message' listener refs a
      // worker again), so idle workers never keep the process alive; a pending
      // search keeps it alive through its timer.
      worker.unref();
      this.#slots.push(slot);
    }
    return this.#slots.slice(0, count);
  }

  /** Stops every worker; the next send starts new ones. */
  async terminate(): Promise<void> {
    const slots = this.#slots;
    this.#slots = [];
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }
}

/** One worker per core, at most {@link MAX_SEARCH_WORKERS}. */
export function defaultSearchWorkers(): number {
  return Math.max(1, Math.min(os.availableParallelism(), MAX_SEARCH_WORKERS));
}
