import type { SearchFile } from "./text-scan.ts";

/**
 * The most bytes of files a first search reads on the calling thread. Measured on
 * Python's standard library (28 MB): a rare literal took 100-110 ms there against 140-150 ms
 * on two workers, which must start first; on a 50,000-file installation (about 600 MB read)
 * the workers, reading side by side, were as fast or faster.
 */
const THIS_THREAD_MAX_BYTES = 64 * 1024 * 1024;

/**
 * True when the files a search must read (those under `maxFileBytes` that `mayHold`, when
 * given, lets through) come to at most {@link THIS_THREAD_MAX_BYTES}: one thread reads them
 * faster than workers start (more are read by every worker at once). Stops asking `mayHold`
 * (which may stat a file) once the answer is known.
 */
export function fitsHere(files: readonly SearchFile[], maxFileBytes: number, mayHold?: (file: SearchFile) => boolean): boolean {
  let bytes = 0;
  for (const file of files) {
    if (file.size <= maxFileBytes && (!mayHold || mayHold(file))) bytes += file.size;
    if (bytes > THIS_THREAD_MAX_BYTES) return false;
  }
  return true;
}
