/** Inputs of {@link retryDelayMs}. */
export interface RetryDelayOptions {
  /** 1 for the wait before the first retry, 2 before the second, … */
  readonly retry: number;
  /** Backoff base: the first retry waits about this long, each next one twice as long. */
  readonly baseDelayMs: number;
  /** Upper bound for any wait, Retry-After included. */
  readonly maxDelayMs: number;
  /** The failed response's headers, when there was a response. */
  readonly headers?: Headers | undefined;
  /** A number in [0, 1); `Math.random` by default. */
  readonly random?: () => number;
}

/**
 * How long to wait before retrying a model call.
 *
 * When the server said how long (`retry-after-ms`, or `Retry-After` as seconds or
 * an HTTP date), that wait is used, capped at `maxDelayMs`. Otherwise exponential
 * backoff with jitter: `baseDelayMs * 2^(retry - 1)`, capped at `maxDelayMs`, then
 * scaled by a random factor in [0.5, 1) so that clients retrying together spread out.
 */
export function retryDelayMs({ retry, baseDelayMs, maxDelayMs, headers, random = Math.random }: RetryDelayOptions): number {
  const serverDelay = retryAfterMs(headers);
  if (serverDelay !== undefined) return Math.min(serverDelay, maxDelayMs);
  const backoff = Math.min(baseDelayMs * 2 ** (retry - 1), maxDelayMs);
  return Math.round(backoff * (0.5 + random() / 2));
}

/** Reads `retry-after-ms` or `Retry-After` (seconds or HTTP date) as milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const milliseconds = headers.get("retry-after-ms");
  if (milliseconds !== null && milliseconds.trim() !== "") {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const retryAfter = headers.get("retry-after");
  if (retryAfter === null || retryAfter.trim() === "") return undefined;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(retryAfter);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - Date.now());
}
