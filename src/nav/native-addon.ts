// Loads rlmkit's native addon (native/), which `npm install` builds when the machine has a C++
// compiler (scripts/build-native.mjs): a first search's scan of many files, and the `stat` of a
// walk's files, on threads of its own. Without it the same work runs in JavaScript. A leaf module:
// the walk's worker thread loads it too.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/** What one native scan found (see native/literal_scan.cc for the layout). */
export interface NativeScanReply {
  /**
   * Per file, {@link NATIVE_FILE_STRIDE} values: the bytes read (-1: unreadable, -2: not read, -3: not read, only stated when `read` is given, see `read` and `grams`;
   * -4: the path led to another file than the one `identity` names, which was not read),
   * 1 when the file looks binary, how many of `hits` are its, and 1 when the path was a symlink, read through (an open that
   * does not follow links failed on it first): `stats` then says what it led to.
   */
  readonly files: Int32Array;
  /**
   * Per hit, {@link NATIVE_HIT_STRIDE} values: file, line (1-based), hit offset in the line's bytes, line offset in `bytes`,
   * line length in bytes, 1 when the line is ASCII; then the innermost symbol's name around the line, from the spans
   * the scan was given: its offset in `names`, its length in bytes, and its kind ({@link NATIVE_NAME}).
   */
  readonly hits: Int32Array;
  /** The bytes of the lines hit, each followed by a line feed (even the last line of a file, which has none). */
  readonly bytes: ArrayBuffer;
  /** The bytes of the names of the hits' symbols, one after the other (a run of hits in one symbol shares one). */
  readonly names: ArrayBuffer;
  /**
   * With `read`, or when a path was read through a symlink: per path, {@link NATIVE_STAT_STRIDE} values as {@link NativeAddon.stat}
   * gives them with `noFollow`, but of the file itself for one read (its `fstat`); all 0 for one neither read nor stated.
   */
  readonly stats?: Float64Array;
  /** 0: done; 1: the deadline passed; 2: cancelled; 3: the lines came to more than `maxLineBytes` (no lines or hits are sent then). */
  readonly stopped: 0 | 1 | 2 | 3;
}

/** The number of values per file in {@link NativeScanReply.files}. */
export const NATIVE_FILE_STRIDE = 4;

/** The number of values per hit in {@link NativeScanReply.hits}. */
export const NATIVE_HIT_STRIDE = 9;

/** What the last of a hit's values says of its name: not named by the scan (no spans given, or spans not well formed), no symbol around the line, a name beyond ASCII (UTF-8), an ASCII name. */
export const NATIVE_NAME = { unnamed: -2, noSymbol: -1, utf8: 0, ascii: 1 } as const;

/** Where the index's disk cache keeps each scanned file's spans (see symbol-piece.ts), for the scan to name each hit's symbol. */
export interface NativeSpans {
  /** The open spans file (the scan reads it through a descriptor of its own). */
  readonly fd: number;
  /** Per path, the byte offset of its spans in the file (a line of it), or -1: none. */
  readonly at: Float64Array;
  /** Per path, the byte length of its spans. */
  readonly length: Int32Array;
}

/** The values per path in the answer of {@link NativeAddon.stat}. */
export const NATIVE_STAT_STRIDE = 9;

/** The addon's `version` this code was written for (native/rlmkit_native.h: kAddonVersion); a build of another is not used. */
export const ADDON_VERSION = 11;

/** The index's trigram filters for a scan (see trigram-filter.ts): the filter file's bytes, or its open file. */
export interface NativeGrams {
  /** The filter file's bytes (the scan copies them), when `fd` is not given. */
  readonly data?: Uint8Array;
  /** The open filter file (the scan's first thread reads it, through a descriptor of its own) and its size. */
  readonly fd?: number;
  readonly bytes?: number;
  /** Per path, the byte offset of its filter in `data`, or -1: none (the path is read). */
  readonly at: Float64Array;
  /** Per path, the byte length of its filter. */
  readonly length: Int32Array;
  /** The trigrams a file's filter must have every one of for the file to be read, as `literalTrigrams` gives them. */
  readonly trigrams: Uint32Array;
}

/** The native addon's entry points (see native/). */
export interface NativeAddon {
  /**
   * Scans the files (absolute paths) for the needle on `threads` threads of its own; each file is read
   * whole, and the first hit of each line that holds the needle is reported. Once the files taken hold
   * `wanted` hits, no more files are taken; once the lines kept pass `maxLineBytes`, the scan stops.
   * `ignoreCase` needs an ASCII needle. A line that lacks any of `also` (other needles, ASCII too when
   * ignoring case) is not kept. With `spans`, each hit of a file that has them is named by the innermost
   * symbol around its line, as `EnclosingSymbols` names it. With `read` (one value per path), every path is
   * stated and only those marked 1 are read: the answer's `stats` then spare a walk its own. With `identity`
   * (a device and an inode number per path, NaN when not known), a path that leads to another file than the
   * one named is not read (-4 in `files`). With `grams`, a path whose trigram filter says it cannot hold every one of
   * the trigrams is not read (-3 in `files`; stated when `read` is given), as `mayHoldAt` says. A line that holds
   * none of the needles of a group of `anyOf` is not kept either (needles must be ASCII when ignoring case, and are
   * compared with ASCII letters folded).
   */
  scan(
    paths: readonly string[],
    needle: string,
    ignoreCase: boolean,
    wanted: number,
    threads: number,
    deadlineMs: number,
    sniffBytes: number,
    maxLineBytes: number,
    also?: readonly string[],
    spans?: NativeSpans,
    read?: Uint8Array,
    identity?: Float64Array,
    grams?: NativeGrams,
    anyOf?: readonly (readonly string[])[],
  ): { readonly promise: Promise<NativeScanReply>; cancel(): void };
  /**
   * The `stat` of each path (following symlinks; with `noFollow`, its `lstat`) on `threads` threads,
   * {@link NATIVE_STAT_STRIDE} values per path: 1 when it succeeded (else all 0), the size, the mtime's
   * seconds and nanoseconds, the ctime's seconds and nanoseconds, the kind of entry (1 a regular
   * file, 2 a directory, 3 a symlink, 4 anything else), the device and the inode number.
   */
  stat(paths: readonly string[], threads: number, noFollow?: boolean): Float64Array;
  /** See {@link ADDON_VERSION}. */
  readonly version: number;
}

// From src/nav (a checkout) and from dist/src/nav (the build).
const CANDIDATES = ["../../native/build/Release/rlmkit_native.node", "../../../native/build/Release/rlmkit_native.node"];

let loaded: NativeAddon | null | undefined;

/**
 * The native addon, or `undefined` when it was not built (no compiler at install, or Windows)
 * or when `RLMKIT_NATIVE_ADDON=0` turns it off (then its work runs in JavaScript).
 */
export function nativeAddon(): NativeAddon | undefined {
  if (process.env.RLMKIT_NATIVE_ADDON === "0") return undefined;
  if (loaded === undefined) loaded = load();
  return loaded ?? undefined;
}

function load(): NativeAddon | null {
  const require = createRequire(import.meta.url);
  for (const candidate of CANDIDATES) {
    try {
      const addon = require(fileURLToPath(new URL(candidate, import.meta.url))) as Partial<NativeAddon>;
      // A build left from an older checkout answers in another layout: not used (its work runs in JavaScript).
      if (addon.version === ADDON_VERSION && typeof addon.scan === "function" && typeof addon.stat === "function") return addon as NativeAddon;
    } catch {
      // Not there (or built for another platform): the next candidate, else none.
    }
  }
  return null;
}
