/**
 * Settles like `promise`, or rejects with `signal.reason` as soon as `signal`
 * aborts, whichever comes first, so a model client that ignores its signal cannot
 * hold a session past its timeout. A later rejection of `promise` is swallowed.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  promise.catch(() => undefined);
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** The abort reason of a session's own signal once it has ended normally: work it left running (un-awaited sub-calls) stops. */
export class SessionEnded extends Error {
  override readonly name = "SessionEnded";
  constructor() {
    super("the session has ended");
  }
}

/** The abort reason of a session's signal when its `timeoutMs` ran out (status `timeout`). */
export class SessionTimeout extends Error {
  override readonly name = "SessionTimeout";
  /** The limit that ran out, in milliseconds. */
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`the session did not finish within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * A session's own signal: aborts when the caller's `signal` does (with its reason),
 * or after `timeoutMs` (with a {@link SessionTimeout}). `dispose()` removes the
 * listener from the caller's signal (a long-lived one must not collect one per
 * session), clears the timer and aborts with {@link SessionEnded} if nothing did, so
 * work the session left running stops.
 */
export function sessionSignal(signal: AbortSignal | undefined, timeoutMs: number | undefined): { readonly signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onCallerAbort = (): void => controller.abort(signal?.reason);
  signal?.addEventListener("abort", onCallerAbort, { once: true });
  if (signal?.aborted) controller.abort(signal.reason);
  const timer = timeoutMs !== undefined ? setTimeout(() => controller.abort(new SessionTimeout(timeoutMs)), timeoutMs) : undefined;
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onCallerAbort);
      if (!controller.signal.aborted) controller.abort(new SessionEnded());
    },
  };
}
