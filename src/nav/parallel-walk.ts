import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import type { WalkedFile, WalkedPart, WalkTrace } from "./repo-walk.ts";
import type { ReadRuleOptions } from "../access/read-rule.ts";

/**
 * How long the calling thread waits for the helper to start running its code (30-60 ms
 * usually). A helper that does not start in time is given up, the calling thread walks its
 * folders itself, and no later walk of the process waits for a helper. (A worker module
 * missing from a bundle is noticed before any wait.)
 */
const STARTED_WITHIN_MS = 2_000;
/**
 * How long the calling thread waits, after its own part of the walk, for the helper's: far
 * longer than a walk of its share takes (tens to hundreds of milliseconds). Past it, the
 * calling thread walks the helper's folders itself.
 */
const DONE_WITHIN_MS = 10_000;
/** The cells of the shared flags: the helper's code runs; its report is posted (or it failed). */
const STARTED = 0;
const DONE = 1;

/** What a walk helper sends back: for each folder it walked, in order, how many of the files and outside links are its own. */
export interface WalkReport {
  readonly folders: string[];
  readonly fileCounts: number[];
  readonly linkCounts: number[];
  readonly paths: string[];
  readonly sizes: Float64Array;
  readonly mtimes: Float64Array;
  readonly ctimes: Float64Array;
  readonly devs: Float64Array;
  readonly inos: Float64Array;
  readonly outsideLinks: string[];
  /** Each folder's trace (see {@link WalkTrace}). */
  readonly traces: WalkTrace[];
}

/** What a walk helper is given (see walk-worker.ts). */
export interface WalkTask {
  readonly root: string;
  /** The read rule's options (see `ReadRule.options`): the worker makes the same rule. */
  readonly rule: ReadRuleOptions;
  readonly folders: readonly string[];
  readonly port: MessagePort;
  /** Cell {@link STARTED} set when its code runs, cell {@link DONE} once the report is posted on `port` (or it failed); each notified. */
  readonly flags: Int32Array;
}

/** A walk of some folders on a worker thread, collected synchronously by the thread that walks the rest. */
export interface WalkHelper {
  /**
   * Waits for the helper (blocking this thread: at most {@link STARTED_WITHIN_MS} for it to
   * start, {@link DONE_WITHIN_MS} for it to finish) and answers what each folder it walked
   * holds; `undefined` when it did not answer.
   */
  collect(): Map<string, WalkedPart> | undefined;
  /** Stops the helper without waiting for it (the walk it was to join failed). */
  cancel(): void;
}

// Set once a helper did not start in time: later walks in this process do not wait for one again.
let helpersFail = false;

/**
 * Starts a worker thread that walks `folders` of the repository under the same read rule
 * (made from the same options; its `.gitignore` files read by the worker), while the
 * calling thread walks everything else. A walk is synchronous, and so is collecting: the
 * worker posts its report on a channel and sets a shared flag, which this thread waits on
 * with `Atomics.wait` and then reads with `receiveMessageOnPort`.
 *
 * @param workerUrl - the worker's module (tests give one that does not exist)
 */
export function startWalkHelper(root: string, rule: ReadRuleOptions, folders: readonly string[], workerUrl = defaultWorkerUrl()): WalkHelper {
  const { port1, port2 } = new MessageChannel();
  const flags = new Int32Array(new SharedArrayBuffer(8));
  let worker: Worker | undefined;
  try {
    // A module missing from a bundle, or an earlier helper that never started: none this time.
    if (helpersFail || (workerUrl.protocol === "file:" && !fs.existsSync(fileURLToPath(workerUrl)))) throw new Error("no walk helper");
    const task: WalkTask = { root, rule, folders, port: port2, flags };
    worker = new Worker(workerUrl, { workerData: task, transferList: [port2] });
    worker.unref();
    // A helper that fails to load reports nothing; the wait for it to start then ends.
    worker.on("error", () => undefined);
  } catch {
    worker = undefined;
  }
  const stop = () => {
    port1.close();
    void worker?.terminate();
  };
  return {
    cancel: stop,
    collect() {
      try {
        if (!worker) return undefined;
        if (Atomics.wait(flags, STARTED, 0, STARTED_WITHIN_MS) === "timed-out") {
          helpersFail = true;
          return undefined;
        }
        if (Atomics.wait(flags, DONE, 0, DONE_WITHIN_MS) === "timed-out") return undefined;
        const report = receiveMessageOnPort(port1)?.message as WalkReport | { error: string } | undefined;
        return report && !("error" in report) ? partsOf(report) : undefined;
      } catch {
        return undefined;
      } finally {
        stop();
      }
    },
  };
}

function defaultWorkerUrl(): URL {
  return new URL(`./walk-worker.${import.meta.url.endsWith(".ts") ? "ts" : "js"}`, import.meta.url);
}

// The report's files and links, folder by folder.
function partsOf(report: WalkReport): Map<string, WalkedPart> {
  const parts = new Map<string, WalkedPart>();
  let file = 0;
  let link = 0;
  report.folders.forEach((folder, index) => {
    const files: WalkedFile[] = [];
    for (const end = file + report.fileCounts[index]!; file < end; file++) files.push({ path: report.paths[file]!, size: report.sizes[file]!, mtimeMs: report.mtimes[file]!, ctimeMs: report.ctimes[file]!, dev: report.devs[file]!, ino: report.inos[file]! });
    const end = link + report.linkCounts[index]!;
    parts.set(folder, { files, outsideLinks: report.outsideLinks.slice(link, end), trace: report.traces[index]! });
    link = end;
  });
  if (file !== report.paths.length || link !== report.outsideLinks.length || report.traces.length !== report.folders.length) throw new Error("a walk report whose counts do not add up");
  return parts;
}

/** The report of a walk of folders (see walk-worker.ts), as columns that cross threads cheaply. */
export function walkReport(walked: ReadonlyMap<string, WalkedPart>): WalkReport {
  const parts = [...walked.values()];
  const files = parts.flatMap((part) => part.files);
  return {
    folders: [...walked.keys()],
    fileCounts: parts.map((part) => part.files.length),
    linkCounts: parts.map((part) => part.outsideLinks.length),
    paths: files.map((file) => file.path),
    sizes: Float64Array.from(files, (file) => file.size),
    mtimes: Float64Array.from(files, (file) => file.mtimeMs),
    ctimes: Float64Array.from(files, (file) => file.ctimeMs),
    devs: Float64Array.from(files, (file) => file.dev),
    inos: Float64Array.from(files, (file) => file.ino),
    outsideLinks: parts.flatMap((part) => part.outsideLinks),
    traces: parts.map((part) => part.trace),
  };
}
