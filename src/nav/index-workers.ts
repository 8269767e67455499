import os from "node:os";
import { Worker } from "node:worker_threads";
import type { FileRecord } from "./file-analysis.ts";
import type { WalkedFile } from "./repo-walk.ts";

/** MB of young generation per index worker (see where the workers start). */
const INDEX_WORKER_YOUNG_MB = 8;

/** Worker threads used to build an index: one per core, at most this many. */
export const MAX_INDEX_WORKERS = 8;
// A batch ends after this many bytes or files, so small files travel together
// and the workers stay evenly loaded to the end.
const BATCH_BYTES = 256 * 1024;
const BATCH_FILES = 64;
// A small job's batches: about this many per worker (a quarter of a worker's share each), of at least this many bytes.
const BATCHES_PER_WORKER = 4;
const MIN_BATCH_BYTES = 16 * 1024;
// Batches kept in flight per worker, so a worker never waits for the main thread.
const IN_FLIGHT = 2;

/** One file for a worker to analyse. */
export interface AnalysisTask {
  readonly absolute: string;
  readonly file: WalkedFile;
}

/** A message to an index worker. */
export interface AnalysisBatch {
  readonly id: number;
  readonly maxFileBytes: number;
  readonly files: readonly AnalysisTask[];
}

/** One analysed file, its symbols still as the piece (UTF-8, see symbol-piece.ts) the cache stores. */
export interface AnalysisResult {
  readonly record: Omit<FileRecord, "symbols">;
  readonly symbolPiece: Uint8Array;
  /** True when the path led to another file than the one listed: the record says nothing and is not to be kept. */
  readonly unread?: boolean;
}

/** How many index workers to start on this machine. */
export function indexWorkerCount(): number {
  return Math.max(1, Math.min(os.availableParallelism(), MAX_INDEX_WORKERS));
}

/**
 * Analyses many files on worker threads, one tree-sitter runtime per worker.
 * Each result is handed to `onResult` as it arrives (with the task's position
 * in `tasks`), so the caller can store it and nothing accumulates here. The
 * workers end when the last result is in.
 */
export async function analyzeInWorkers(
  tasks: readonly AnalysisTask[],
  maxFileBytes: number,
  onResult: (index: number, result: AnalysisResult) => void,
): Promise<void> {
  const batches = analysisBatches(tasks);
  if (batches.length === 0) return;
  const workerCount = Math.min(indexWorkerCount(), batches.length);
  const extension = import.meta.url.endsWith(".ts") ? "ts" : "js";
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      let next = 0;
      let done = 0;
      const send = (worker: Worker) => {
        if (next >= batches.length) return;
        const id = next++;
        worker.postMessage({ id, maxFileBytes, files: batches[id].map((index) => tasks[index]) } satisfies AnalysisBatch);
      };
      for (let count = 0; count < workerCount; count++) {
        // A small young generation: a worker's garbage is mostly short-lived parse results, and
        // V8's default nursery (up to 32 MB a semispace on 64-bit) multiplies the peak by the worker count.
        const worker = new Worker(new URL(`./index-worker.${extension}`, import.meta.url), { resourceLimits: { maxYoungGenerationSizeMb: INDEX_WORKER_YOUNG_MB } });
        workers.push(worker);
        worker.on("message", (message: { id: number; results: AnalysisResult[] }) => {
          const indexes = batches[message.id];
          for (let position = 0; position < indexes.length; position++) onResult(indexes[position], message.results[position]);
          if (++done === batches.length) resolve();
          else send(worker);
        });
        worker.on("error", reject);
        worker.on("exit", (code) => {
          if (done < batches.length) reject(new Error(`an index worker stopped (exit code ${code}) before the index was built`));
        });
        for (let slot = 0; slot < IN_FLIGHT; slot++) send(worker);
      }
    });
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

/**
 * Groups task positions into batches of neighbouring files, bounded by bytes and count, the largest batches first
 * (so that the last ones to be handed out are small and the workers finish together). A small job is cut finer,
 * into several batches per worker, so that one worker is not left parsing a large batch while the others idle.
 */
export function analysisBatches(tasks: readonly AnalysisTask[], workers = indexWorkerCount()): number[][] {
  const sizeOf = (index: number) => Math.min(tasks[index].file.size, BATCH_BYTES);
  let total = 0;
  for (let index = 0; index < tasks.length; index++) total += sizeOf(index);
  const limit = Math.max(MIN_BATCH_BYTES, Math.min(BATCH_BYTES, Math.ceil(total / (workers * BATCHES_PER_WORKER))));
  const batches: { readonly indexes: number[]; readonly bytes: number }[] = [];
  let current: number[] = [];
  let bytes = 0;
  for (let index = 0; index < tasks.length; index++) {
    current.push(index);
    bytes += sizeOf(index);
    if (bytes >= limit || current.length >= BATCH_FILES) {
      batches.push({ indexes: current, bytes });
      current = [];
      bytes = 0;
    }
  }
  if (current.length > 0) batches.push({ indexes: current, bytes });
  return batches.sort((a, b) => b.bytes - a.bytes).map((batch) => batch.indexes);
}
