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
