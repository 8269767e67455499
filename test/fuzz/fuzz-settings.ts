import type { Parameters } from "fast-check";

/**
 * How long each property runs. In `npm test` every property makes a bounded
 * number of runs; `npm run fuzz` sets RLMKIT_FUZZ_SECONDS and each property then
 * runs for its share of that time (RLMKIT_FUZZ_SEED replays a reported failure).
 */
export function fuzzParameters<T>(share: number, testRuns: number): Parameters<T> {
  const seconds = Number(process.env.RLMKIT_FUZZ_SECONDS ?? 0);
  const seed = process.env.RLMKIT_FUZZ_SEED === undefined ? {} : { seed: Number(process.env.RLMKIT_FUZZ_SEED) };
  if (seconds > 0) return { numRuns: Number.MAX_SAFE_INTEGER, interruptAfterTimeLimit: seconds * 1_000 * share, markInterruptAsFailure: false, ...seed };
  return { numRuns: testRuns, ...seed };
}

/** The vitest time limit of a property test: its fuzz share plus a minute, or `testMs` in `npm test`. */
export function fuzzTimeout(share: number, testMs: number): number {
  const seconds = Number(process.env.RLMKIT_FUZZ_SECONDS ?? 0);
  return seconds > 0 ? seconds * 1_000 * share + 60_000 : testMs;
}
