// The size, mtime and ctime of a walk's files, all at once: on the native addon's threads when it
// was built (one `stat` each, with none of fs.statSync's cost around it), else with fs.statSync.
import fs from "node:fs";
import os from "node:os";
import { NATIVE_STAT_STRIDE as STRIDE, nativeAddon } from "./native-addon.ts";

/** A file's size, mtime and ctime, and which file it is (its device and inode number), as fs.statSync gives them. */
export interface FileStat {
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly dev: number;
  readonly ino: number;
}

/** What a path is, as `lstat` sees it. */
export type EntryKind = "file" | "directory" | "symlink" | "other";

/** An entry's `lstat`: its kind, size, mtime and ctime. */
export interface EntryStat extends FileStat {
  readonly kind: EntryKind;
}

// Below this many paths one thread does it (starting another costs more than it saves).
const THREADED_FROM = 256;
const MAX_THREADS = 4;
// The addon's kinds, by number (see native/stat_files.cc).
const KINDS: readonly EntryKind[] = ["other", "file", "directory", "symlink", "other"];

/** The `stat` of each path (symlinks followed), or `undefined` where it fails. */
export function statFiles(paths: readonly string[]): (FileStat | undefined)[] {
  return nativeStats(paths, false, (size, mtimeMs, ctimeMs, _kind, dev, ino) => ({ size, mtimeMs, ctimeMs, dev, ino })) ?? paths.map(statSync);
}

/** The `lstat` of each path (a symlink is itself, not what it leads to), or `undefined` where it fails. */
export function lstatEntries(paths: readonly string[]): (EntryStat | undefined)[] {
  return nativeStats(paths, true, entryStat) ?? paths.map(lstatSync);
}

// The stats on the addon's threads, each made by `make`; `undefined` without the addon.
function nativeStats<T>(paths: readonly string[], noFollow: boolean, make: MakeStat<T>): (T | undefined)[] | undefined {
  const addon = nativeAddon();
  if (!addon) return undefined;
  const threads = paths.length < THREADED_FROM ? 1 : Math.max(1, Math.min(os.availableParallelism(), MAX_THREADS));
  return statsOf(addon.stat(paths, threads, noFollow), make);
}

/** The entries' stats in the addon's answer (`stat` with `noFollow`, or a scan's `stats`), or `undefined` where it has none. */
export function entryStatsOf(values: Float64Array): (EntryStat | undefined)[] {
  return statsOf(values, entryStat);
}

/** The stats of entry `index` in the addon's answer, as {@link entryStatsOf} gives them. */
export function entryStatAt(values: Float64Array, index: number): EntryStat | undefined {
  return statAt(values, index * STRIDE, entryStat);
}

type MakeStat<T> = (size: number, mtimeMs: number, ctimeMs: number, kind: EntryKind, dev: number, ino: number) => T;

function entryStat(size: number, mtimeMs: number, ctimeMs: number, kind: EntryKind, dev: number, ino: number): EntryStat {
  return { kind, size, mtimeMs, ctimeMs, dev, ino };
}

function statsOf<T>(values: Float64Array, make: MakeStat<T>): (T | undefined)[] {
  const stats: (T | undefined)[] = new Array(values.length / STRIDE);
  for (let index = 0, at = 0; index < stats.length; index++, at += STRIDE) stats[index] = statAt(values, at, make);
  return stats;
}

function statAt<T>(values: Float64Array, at: number, make: MakeStat<T>): T | undefined {
  // Milliseconds from seconds and nanoseconds as Node computes them, so the figures are equal to its own.
  return values[at] === 1 ? make(values[at + 1]!, values[at + 2]! * 1e3 + values[at + 3]! / 1e6, values[at + 4]! * 1e3 + values[at + 5]! / 1e6, KINDS[values[at + 6]!] ?? "other", values[at + 7]!, values[at + 8]!) : undefined;
}

function statSync(file: string): FileStat | undefined {
  try {
    const { size, mtimeMs, ctimeMs, dev, ino } = fs.statSync(file);
    return { size, mtimeMs, ctimeMs, dev, ino };
  } catch {
    return undefined;
  }
}

function lstatSync(file: string): EntryStat | undefined {
  try {
    const stat = fs.lstatSync(file, { throwIfNoEntry: false });
    if (!stat) return undefined;
    const kind: EntryKind = stat.isFile() ? "file" : stat.isDirectory() ? "directory" : stat.isSymbolicLink() ? "symlink" : "other";
    return { kind, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, dev: stat.dev, ino: stat.ino };
  } catch {
    return undefined;
  }
}
