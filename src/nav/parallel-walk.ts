import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import type { WalkedFile } from "./repo-walk.ts";

/**
 * How long the calling thread waits, after its own part of the walk, for the helper's. Far
 * longer than a walk of its share takes (tens to hundreds of milliseconds); past it, the calling
 * thread walks the helper's folders itself (a helper that could not start, say).
 */
const WAIT_MS = 10_000;

/** What a walk helper sends back: its files as columns, its symlinks that leave the root, and the folders it did not walk. */
export interface WalkReport {
  readonly paths: string[];
  readonly sizes: Float64Array;
  readonly mtimes: Float64Array;
  readonly ctimes: Float64Array;
  readonly outsideLinks: string[];
  readonly declined: string[];
}

/** What a walk helper is given (see walk-worker.ts). */
export interface WalkTask {
  readonly root: string;
  readonly secretFiles: readonly string[];
  readonly folders: readonly string[];
  readonly port: MessagePort;
  /** Set to 1 (and notified) once the report is posted on `port`, or the helper failed. */
  readonly done: Int32Array;
}

/** A walk of some folders on a worker thread, collected synchronously by the thread that walks the rest. */
export interface WalkHelper {
  /**
   * Waits for the helper (blocking this thread, at most {@link WAIT_MS}), adds what it found, and
   * answers the folders it did not walk; `undefined` when it did not answer (none of its folders were walked).
   */
  collect(files: WalkedFile[], outsideLinks: string[]): string[] | undefined;
}

/**
 * Starts a worker thread that walks `folders` of the repository under the same read rule
 * (the same secret-file patterns; its `.gitignore` files read by the worker), while the
 * calling thread walks everything else. A walk is synchronous, and so is collecting: the
 * worker posts its report on a channel and flips a shared flag, which this thread waits on
 * with `Atomics.wait` and then reads with `receiveMessageOnPort`.
 */
export function startWalkHelper(root: string, secretFiles: readonly string[], folders: readonly string[]): WalkHelper {
  const { port1, port2 } = new MessageChannel();
  const done = new Int32Array(new SharedArrayBuffer(4));
  const extension = import.meta.url.endsWith(".ts") ? "ts" : "js";
  let worker: Worker | undefined;
  try {
    const task: WalkTask = { root, secretFiles, folders, port: port2, done };
    worker = new Worker(new URL(`./walk-worker.${extension}`, import.meta.url), { workerData: task, transferList: [port2] });
    worker.unref();
    // A failure to start reports nothing; the wait then ends at its deadline.
    worker.on("error", () => undefined);
  } catch {
    worker = undefined;
  }
  return {
    collect(files, outsideLinks) {
      try {
        if (!worker || Atomics.wait(done, 0, 0, WAIT_MS) === "timed-out") return undefined;
        const report = receiveMessageOnPort(port1)?.message as WalkReport | { error: string } | undefined;
        if (!report || "error" in report) return undefined;
        report.paths.forEach((path, index) => files.push({ path, size: report.sizes[index]!, mtimeMs: report.mtimes[index]!, ctimeMs: report.ctimes[index]! }));
        outsideLinks.push(...report.outsideLinks);
        return report.declined;
      } finally {
        port1.close();
        void worker?.terminate();
      }
    },
  };
}
