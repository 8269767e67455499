import { setFlagsFromString } from "node:v8";

/** The largest nursery semi-space an isolate gets, in MB (host Node 24 allows up to 64 MB). */
export const MAX_SEMI_SPACE_MB = 32;

/**
 * Size of the semi-spaces of V8's young generation (the nursery, where new objects
 * are made) for an isolate with this heap limit: a quarter of the limit, from 1
 * to 32 MB (32 MB for the default 128 MB). V8 grows a semi-space only as far as
 * surviving objects need, so an idle isolate does not pay for it. Measured: splitting
 * and filtering a 10 MB log twenty times took 200 ms with 16 MB semi-spaces, 165 ms
 * with 32 MB and 130 ms in host Node (64 MB). isolated-vm derives the nursery from the
 * heap limit alone and gives a 128 MB isolate 2 MB in all; code that makes many
 * short-lived objects (`split`, `JSON.parse`, `map`) then spends most of its time
 * collecting them. The young generation (three semi-spaces at most) comes on top
 * of the heap limit, and isolated-vm lets ArrayBuffers use that much more too.
 */
export function semiSpaceMb(memoryLimitMb: number): number {
  return Math.max(1, Math.min(MAX_SEMI_SPACE_MB, Math.floor(memoryLimitMb / 4)));
}

/**
 * Runs `create`, which must create an isolate synchronously, with V8's semi-space
 * limit set to `megabytes`, then restores the setting isolated-vm chose at start-up
 * (0: each isolate takes the size its own constraints give). The flag is read only
 * while an isolate is created, so it does not change isolates that exist.
 */
export function withSemiSpace<T>(megabytes: number, create: () => T): T {
  setFlagsFromString(`--max-semi-space-size=${megabytes}`);
  try {
    return create();
  } finally {
    setFlagsFromString("--max-semi-space-size=0");
  }
}
