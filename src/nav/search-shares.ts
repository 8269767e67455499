import type { FilterSink } from "./file-filters.ts";
import type { SearchFile } from "./text-scan.ts";

/** A worker's share of the files, as arrays (they cross threads far faster than one object per file). */
export interface FileShare {
  readonly paths: readonly string[];
  readonly sizes: Float64Array;
  readonly mtimes: Float64Array;
  /** Each file's ctime, NaN where the list has none. */
  readonly ctimes: Float64Array;
  /** Each file's device and inode number (see `SearchFile`), NaN where the list has none. */
  readonly devs: Float64Array;
  readonly inos: Float64Array;
  /** Each file's index in the whole list (the shares interleave), in increasing order. */
  readonly indexes: Int32Array;
}

/**
 * Splits the files into one share per worker (at most `workers`): each file goes to the worker
 * its path hashes to. The shares interleave across the whole list, so the matches of a search
 * spread over the workers however they cluster in the tree (with a share of contiguous files of
 * equal bytes, one worker of two found 38,120 of stdlib's 59,174 `self.` lines); and a file stays
 * with the same worker in every list of at least as many files as there are workers (a first
 * search's files that may match, then every file), so no worker reads a text another one already
 * holds. Each share keeps the list's order. Shares are even in files, and in bytes only as far as
 * many files make them (the heaviest of four over 666 files held 1.23× the mean bytes).
 */
export function partitionFiles(files: readonly SearchFile[], workers: number): FileShare[] {
  const count = Math.max(1, Math.min(workers, files.length));
  const owners = new Uint16Array(files.length);
  const lengths = new Array<number>(count).fill(0);
  if (count > 1) {
    for (let index = 0; index < files.length; index++) {
      const owner = pathHash(files[index]!.path) % count;
      owners[index] = owner;
      lengths[owner]!++;
    }
  } else {
    lengths[0] = files.length;
  }
  const shares = lengths.map((length) => ({ paths: new Array<string>(length), sizes: new Float64Array(length), mtimes: new Float64Array(length), ctimes: new Float64Array(length), devs: new Float64Array(length), inos: new Float64Array(length), indexes: new Int32Array(length) }));
  const filled = new Array<number>(count).fill(0);
  for (let index = 0; index < files.length; index++) {
    const file = files[index]!;
    const owner = owners[index]!;
    const share = shares[owner]!;
    const at = filled[owner]!++;
    share.paths[at] = file.path;
    share.sizes[at] = file.size;
    share.mtimes[at] = file.mtimeMs;
    share.ctimes[at] = file.ctimeMs ?? Number.NaN;
    share.devs[at] = file.dev ?? Number.NaN;
    share.inos[at] = file.ino ?? Number.NaN;
    share.indexes[at] = index;
  }
  return shares;
}

// FNV-1a over the path's UTF-16 code units, cheap and the same in every process, then mixed
// (murmur3's finalizer): FNV-1a's low bits alone depend on each code unit's low bits, not on their order.
function pathHash(path: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < path.length; index++) hash = Math.imul(hash ^ path.charCodeAt(index), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}

/** For each share, one flag per file: 1 where `learn` wants a filter of the file; `undefined` for a share with none. */
export function learnFlags(files: readonly SearchFile[], shares: readonly FileShare[], learn: FilterSink): (Uint8Array | undefined)[] {
  return shares.map((share) => {
    const flags = new Uint8Array(share.paths.length);
    let any = false;
    for (let index = 0; index < flags.length; index++) {
      if (!learn.wants(files[share.indexes[index]!]!)) continue;
      flags[index] = 1;
      any = true;
    }
    return any ? flags : undefined;
  });
}
