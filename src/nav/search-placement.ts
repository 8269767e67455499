import type { SearchFile } from "./text-scan.ts";

/**
 * The most bytes of files a first search reads on the calling thread. Measured on
 * Python's standard library (28 MB): a rare literal took 100-110 ms there against 140-150 ms
 * on two workers, which must start first; on a 50,000-file installation (about 600 MB read)
 * the workers, reading side by side, were as fast or faster.
 */
const THIS_THREAD_MAX_BYTES = 64 * 1024 * 1024;
/** {@link likelyFitsHere} tests every this many files of a list. */
const SAMPLE_EVERY = 8;

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

/**
 * {@link fitsHere} as a test of every {@link SAMPLE_EVERY}th file tells, when the estimate is
 * more than a factor of two from the bound; else `fitsHere` itself. Testing each of 50,000 files
 * took 50-70 ms of the calling thread before its walk.
 */
export function likelyFitsHere(files: readonly SearchFile[], maxFileBytes: number, mayHold?: (file: SearchFile) => boolean): boolean {
  if (mayHold && files.length >= SAMPLE_EVERY * 64) {
    let sampled = 0;
    for (let index = 0; index < files.length; index += SAMPLE_EVERY) {
      const file = files[index]!;
      if (file.size <= maxFileBytes && mayHold(file)) sampled += file.size;
    }
    const estimate = sampled * SAMPLE_EVERY;
    if (estimate < THIS_THREAD_MAX_BYTES / 2) return true;
    if (estimate > THIS_THREAD_MAX_BYTES * 2) return false;
  }
  return fitsHere(files, maxFileBytes, mayHold);
}
