import { setFlagsFromString } from "node:v8";

/** The largest nursery semi-space an isolate gets, in MB: V8's own default for a 64-bit host. */
export const MAX_SEMI_SPACE_MB = 16;

/**
 * Size of the semi-spaces of V8's young generation (the nursery, where new objects
 * are made) for an isolate with this heap limit: a sixteenth of the limit, from 1
 * to 16 MB (8 MB for the default 128 MB). isolated-vm derives the nursery from the
 * heap limit alone and gives a 128 MB isolate 2 MB in all; code that makes many
 * short-lived objects (`split`, `JSON.parse`, `map`) then spends most of its time
 * collecting them. The young generation (three semi-spaces at most) comes on top
 * of the heap limit, and isolated-vm lets ArrayBuffers use that much more too.
 */
export function semiSpaceMb(memoryLimitMb: number): number {
  return Math.max(1, Math.min(MAX_SEMI_SPACE_MB, Math.floor(memoryLimitMb / 16)));
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
