// What a search learns of the files it reads whole: a trigram filter for each file the index
// has none for. The index keeps them beside its records and in the disk cache, so a process
// that only searches (`rlmkit nav search`) leaves filters for the next process's first search,
// which then reads only the files that may hold its literal. It imports leaf modules only: the
// search workers load it from source (.ts) and from the build (.js).
import { looksBinary } from "./file-rules.ts";
import type { SearchFile } from "./text-scan.ts";
import { trigramFilter } from "./trigram-filter.ts";

/** A file a search read whole that the index has no record for: its version, whether it is binary, and its trigram filter. */
export interface FileFilter {
  /** Path relative to the root, with `/`. */
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly binary: boolean;
  /** The trigram filter of its bytes; absent for a binary file. */
  readonly grams: Uint8Array | undefined;
}

/** Where a search leaves the filters of the files it reads (see {@link FileFilter}). */
export interface FilterSink {
  /** True when the index has neither a record nor a filter for this version of the file: a search that reads it whole should make one. */
  wants(file: SearchFile): boolean;
  /** The filter of a wanted file, made from its bytes as the index knows them (same size); `undefined` for a binary file. */
  add(file: SearchFile, grams: Uint8Array | undefined): void;
}

/** The filter a search makes of a file's whole bytes: `undefined` when the file is binary (nothing is searched in it). */
export function filterOfBytes(bytes: Uint8Array): Uint8Array | undefined {
  return looksBinary(bytes) ? undefined : trigramFilter(bytes);
}

/** The filters workers made, as they cross threads: indexes into the searched file list, with each file's filter (`null`: binary). */
export interface LearnedFilters {
  readonly indexes: number[];
  readonly grams: (Uint8Array | null)[];
}

/** Hands the filters the workers made to the sink, with the files they were made of. */
export function deliverFilters(files: readonly SearchFile[], replies: readonly { readonly filters?: LearnedFilters }[], sink: FilterSink): void {
  for (const reply of replies) {
    const learned = reply.filters;
    if (!learned) continue;
    learned.indexes.forEach((index, at) => sink.add(files[index]!, learned.grams[at] ?? undefined));
  }
}
