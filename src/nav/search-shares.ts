import type { FilterSink } from "./file-filters.ts";
import type { SearchFile } from "./text-scan.ts";

/** A worker's share of the files, as arrays (they cross threads far faster than one object per file). */
export interface FileShare {
  readonly paths: readonly string[];
  readonly sizes: Float64Array;
  readonly mtimes: Float64Array;
}

/** One worker's share, and the index of its first file in the whole list. */
export interface Part {
  readonly base: number;
  readonly share: FileShare;
}

/** What opening, reading and closing one file costs a worker beyond its bytes, counted in bytes when the files are shared out. */
const PER_FILE_WORK_BYTES = 16 * 1024;

/**
 * Splits the files into one contiguous share per worker (at most `workers`), of about equal
 * work: bytes, plus a per-file cost for opening and closing it (a share of many small files
 * takes longer than its bytes say).
 */
export function partitionFiles(files: readonly SearchFile[], workers: number): Part[] {
  const count = Math.max(1, Math.min(workers, files.length));
  const work = (file: SearchFile) => file.size + PER_FILE_WORK_BYTES;
  let total = 0;
  for (const file of files) total += work(file);
  const parts: Part[] = [];
  let start = 0;
  let done = 0;
  for (let index = 0; index < files.length; index++) {
    done += work(files[index]!);
    if (parts.length < count - 1 && done >= (total * (parts.length + 1)) / count) {
      parts.push({ base: start, share: shareOf(files, start, index + 1) });
      start = index + 1;
    }
  }
  parts.push({ base: start, share: shareOf(files, start, files.length) });
  return parts;
}

// The files from `start` to `end` as the arrays a worker receives.
function shareOf(files: readonly SearchFile[], start: number, end: number): FileShare {
  const share = { paths: new Array<string>(end - start), sizes: new Float64Array(end - start), mtimes: new Float64Array(end - start) };
  for (let index = start; index < end; index++) {
    const file = files[index]!;
    share.paths[index - start] = file.path;
    share.sizes[index - start] = file.size;
    share.mtimes[index - start] = file.mtimeMs;
  }
  return share;
}

/** For each share, one flag per file: 1 where `learn` wants a filter of the file; `undefined` for a share with none. */
export function learnFlags(files: readonly SearchFile[], parts: readonly Part[], learn: FilterSink): (Uint8Array | undefined)[] {
  return parts.map(({ base, share }) => {
    const flags = new Uint8Array(share.paths.length);
    let any = false;
    for (let index = 0; index < flags.length; index++) {
      if (!learn.wants(files[base + index]!)) continue;
      flags[index] = 1;
      any = true;
    }
    return any ? flags : undefined;
  });
}
