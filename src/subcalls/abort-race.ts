/** Why a sub-call was stopped: its own time limit ran out. */
export class SubcallTimeoutError extends Error {
  override readonly name = "SubcallTimeoutError";
  /** The limit that ran out, in milliseconds. */
  readonly timeoutMs: number;
  /** True when the limit was the tree's `maxWallMs` rather than `subcallTimeoutMs`. */
  readonly wallBudget: boolean;

  constructor(timeoutMs: number, wallBudget: boolean) {
    super(wallBudget ? `the wall-time budget ran out after the call had waited ${timeoutMs} ms` : `no reply within the sub-call timeout of ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
    this.wallBudget = wallBudget;
  }
}

/**
 * A signal that aborts when `parent` does or when `timeoutMs` passes (with a
 * {@link SubcallTimeoutError} as the reason). Call `dispose` when the work is done.
 */
export function subcallSignal(parent: AbortSignal, timeoutMs: number, wallBudget: boolean): { readonly signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(parent.reason);
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new SubcallTimeoutError(timeoutMs, wallBudget)), timeoutMs);
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      parent.removeEventListener("abort", onAbort);
    },
  };
}
