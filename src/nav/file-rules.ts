// Rules the index (main thread) and the search worker must apply alike. This module
// imports nothing of the project, so the worker can load it from source and from the build.
import picomatch from "picomatch";

/** Bytes inspected for NUL characters to decide that a file is binary. */
export const BINARY_SNIFF_BYTES = 8000;

/** True when the start of a file holds a NUL byte: the file is treated as binary. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/**
 * A matcher for the `glob` option of `nav_search`: dot files included, and a
 * pattern without `/` matches a file's base name anywhere (`*.ts`).
 */
export function globMatcher(glob: string): (path: string) => boolean {
  return picomatch(glob, { dot: true, basename: !glob.includes("/") });
}
