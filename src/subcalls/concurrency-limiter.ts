/** Default number of sub-model calls in flight at once across a call tree. */
export const DEFAULT_SUBCALL_CONCURRENCY = 8;

/** Runs async tasks with at most `limit` of them in flight; the rest wait in first-come order. */
export interface ConcurrencyLimiter {
  readonly limit: number;
  /** Tasks running now. */
  readonly active: number;
  /** Runs `task` once a slot is free and resolves (or rejects) with it. When `signal` aborts while the task waits, it leaves the queue and the promise rejects with the signal's reason. */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

/**
 * Creates a {@link ConcurrencyLimiter}.
 *
 * @example
 * const limiter = createConcurrencyLimiter(2);
 * await Promise.all(prompts.map((prompt) => limiter.run(() => ask(prompt)))); // two at a time
 */
export function createConcurrencyLimiter(limit: number = DEFAULT_SUBCALL_CONCURRENCY): ConcurrencyLimiter {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency limit must be a positive integer, got ${limit}.`);
  const waiting: (() => void)[] = [];
  let active = 0;
  const release = (): void => {
    active--;
    const next = waiting.shift();
    if (next) {
      active++;
      next();
    }
  };
  return {
    limit,
    get active() {
      return active;
    },
    async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      signal?.throwIfAborted();
      if (active < limit) active++;
      else {
        await new Promise<void>((resolve, reject) => {
          const onAbort = (): void => {
            waiting.splice(waiting.indexOf(admit), 1);
            reject(signal!.reason);
          };
          // release() has counted the slot as taken when it calls admit.
          const admit = (): void => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          };
          signal?.addEventListener("abort", onAbort, { once: true });
          waiting.push(admit);
        });
      }
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
