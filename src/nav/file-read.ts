// How a search reads a file's bytes and decodes its text: one reused buffer, no fstat. A leaf
// module like text-scan.ts, so the search workers can load it from source (.ts) and from the build (.js).
import { isAscii } from "node:buffer";
import fs from "node:fs";
import { looksBinary } from "./file-rules.ts";
import { pathUnder, type SearchFile } from "./text-scan.ts";

// Non-blocking, so that a path replaced by a FIFO since the walk opens at once (its read then
// fails) instead of blocking the thread until something writes to it; a regular file reads as usual.
const READ_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);
// A listed path is first opened without following a symlink (where the system can say so).
const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/** What a read of a listed file gives: its bytes, or `null` when it cannot be read; `changed` as described where it is made. */
export interface SearchBytes {
  readonly bytes: Buffer | null;
  readonly changed: boolean;
}

const UNREADABLE: SearchBytes = { bytes: null, changed: false };
// The path leads to another file than the one listed: nothing of it is read, and the caller reports it changed for the read rule to judge.
const ANOTHER_FILE: SearchBytes = { bytes: null, changed: true };

/**
 * Opens a listed file: a descriptor, or a read's answer when there is nothing to read. A path can lead
 * to another file than the walk listed (it became a symlink to `.env`, or a folder on the way became a
 * link to an ignored folder), which must not be read then. When the list knows which file it means (a
 * walk's files: device and inode number), the file opened must be that one (see {@link openRegularFile}).
 * Otherwise (the disk cache's list, which the walk checks after the search) a symlink is opened through
 * only after an open that does not follow links failed on it, and kept only when it leads to a file of
 * the listed version (see {@link isListedVersion}). Only a regular file is read.
 */
function openListed(absolute: string, file: SearchFile): number | SearchBytes {
  if (file.ino !== undefined && file.dev !== undefined) {
    const fd = openRegularFile(absolute, file);
    return typeof fd === "number" ? fd : fd === "another" ? ANOTHER_FILE : UNREADABLE;
  }
  try {
    return fs.openSync(absolute, READ_FLAGS | NO_FOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOOP") return UNREADABLE;
  }
  let fd: number;
  try {
    fd = fs.openSync(absolute, READ_FLAGS);
  } catch {
    return UNREADABLE;
  }
  let answer: SearchBytes = ANOTHER_FILE;
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) answer = UNREADABLE;
    else if (isListedVersion(stat, file)) return fd;
  } catch {
    // Not stated: not known to be the file listed.
  }
  fs.closeSync(fd);
  return answer;
}

/** Whether a file's stats are the listed file's version: its size, mtime and, when the list has it, ctime. */
export function isListedVersion(stat: { readonly size: number; readonly mtimeMs: number; readonly ctimeMs: number }, file: SearchFile): boolean {
  return stat.size === file.size && stat.mtimeMs === file.mtimeMs && (file.ctimeMs === undefined || stat.ctimeMs === file.ctimeMs);
}

/**
 * Opens a regular file without blocking (a FIFO opens at once and is not read): its descriptor, which the
 * caller closes; `undefined` when the path cannot be opened or is not a regular file; `"another"` when,
 * given the file the walk listed (its device and inode number), the path leads to another file now.
 */
export function openRegularFile(absolute: string, listed?: { readonly dev?: number; readonly ino?: number }): number | "another" | undefined {
  let fd: number;
  try {
    fd = fs.openSync(absolute, READ_FLAGS);
  } catch {
    return undefined;
  }
  let answer: "another" | undefined;
  try {
    const stat = fs.fstatSync(fd);
    if (stat.isFile() && (listed?.ino === undefined || (stat.ino === listed.ino && stat.dev === listed.dev))) return fd;
    if (stat.isFile()) answer = "another";
  } catch {
    // Not stated: not read.
  }
  fs.closeSync(fd);
  return answer;
}

/**
 * A file's bytes for a search, or `null` when it cannot be read; `changed`
 * when its size on disk is not the index's (the caller reports it, and the
 * bytes are of the file as it is now), or when the path leads to another
 * file than the one listed (then no bytes: see {@link openListed}).
 */
export function readSearchBytes(root: string, file: SearchFile): SearchBytes {
  const fd = openListed(pathUnder(root, file.path), file);
  if (typeof fd !== "number") return fd;
  try {
    const bytes = fs.readFileSync(fd);
    return { bytes, changed: bytes.length !== file.size };
  } catch {
    return UNREADABLE;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A regular file's bytes; `undefined` when the path cannot be read or is not a regular file (a FIFO is
 * opened without blocking and not read); `"another"` when, given the file the walk listed (its device
 * and inode number), the path leads to another file now. For the reads outside a search: an analysis,
 * `nav_read`, `nav_refs`.
 */
export function readRegularFile(absolute: string, listed?: { readonly dev?: number; readonly ino?: number }): Buffer | "another" | undefined {
  const fd = openRegularFile(absolute, listed);
  if (typeof fd !== "number") return fd;
  try {
    return fs.readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Reads files into one reused buffer (the bytes are valid until the next read):
 * no buffer per file for the garbage collector. The index knows each size; a
 * file that is no longer that size is read again whole. A file the walk listed
 * is `fstat`ed once open, to check it is the one listed (see {@link openListed}).
 */
export class ScratchReader {
  #buffer: Buffer;
  /** @param maxFileBytes - the largest file it expects (the buffer grows for a larger one) */
  constructor(maxFileBytes: number) {
    this.#buffer = Buffer.allocUnsafe(Math.min(maxFileBytes, 1024 * 1024) + 1);
  }

  /** The file's bytes (valid until the next read), or `null` when it cannot be read; `changed` as for {@link readSearchBytes}. */
  read(root: string, file: SearchFile): SearchBytes {
    if (this.#buffer.length < file.size + 1) this.#buffer = Buffer.allocUnsafe(file.size + 1);
    const fd = openListed(pathUnder(root, file.path), file);
    if (typeof fd !== "number") return fd;
    let length = 0;
    try {
      // One byte more than the index's size shows a file that grew.
      for (let read = -1; read !== 0 && length < file.size + 1; length += read) read = fs.readSync(fd, this.#buffer, length, file.size + 1 - length, length);
    } catch {
      return UNREADABLE;
    } finally {
      fs.closeSync(fd);
    }
    if (length > file.size) return readSearchBytes(root, file);
    return { bytes: this.#buffer.subarray(0, length), changed: length !== file.size };
  }
}

/** A file's text from its bytes, or `null` when it looks binary. */
export function decodeSearchText(bytes: Buffer): string | null {
  return looksBinary(bytes) ? null : decodeText(bytes);
}

/**
 * Bytes decoded as UTF-8. Bytes that are all ASCII are copied as Latin-1, which gives the
 * same text: on Python's standard library (28 MB) 9-13 ms against 12-22 ms for the UTF-8 decoder.
 */
export function decodeText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
}
