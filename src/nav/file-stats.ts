// The size, mtime and ctime of a walk's files, all at once: on the native addon's threads when it
// was built (one `stat` each, with none of fs.statSync's cost around it), else with fs.statSync.
import fs from "node:fs";
import os from "node:os";
import { NATIVE_STAT_STRIDE as STRIDE, nativeAddon } from "./native-addon.ts";

/** A file's size, mtime and ctime, as fs.statSync gives them. */
export interface FileStat {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
}

// Below this many paths one thread does it (starting another costs more than it saves).
const THREADED_FROM = 256;
const MAX_THREADS = 4;

/** The `stat` of each path (symlinks followed), or `undefined` where it fails. */
export function statFiles(paths: readonly string[]): (FileStat | undefined)[] {
  const addon = nativeAddon();
  if (!addon) return paths.map(statSync);
  const threads = paths.length < THREADED_FROM ? 1 : Math.max(1, Math.min(os.availableParallelism(), MAX_THREADS));
  const values = addon.stat(paths, threads);
  const stats: (FileStat | undefined)[] = new Array(paths.length);
  for (let index = 0, at = 0; index < paths.length; index++, at += STRIDE) {
    // Milliseconds from seconds and nanoseconds as Node computes them, so the figures are equal to its own.
    stats[index] = values[at] === 1 ? { size: values[at + 1]!, mtimeMs: values[at + 2]! * 1e3 + values[at + 3]! / 1e6, ctimeMs: values[at + 4]! * 1e3 + values[at + 5]! / 1e6 } : undefined;
  }
  return stats;
}

function statSync(file: string): FileStat | undefined {
  try {
    const { size, mtimeMs, ctimeMs } = fs.statSync(file);
    return { size, mtimeMs, ctimeMs };
  } catch {
    return undefined;
  }
}
