// Walks some folders of a repository for a walk on another thread (see parallel-walk.ts).
// Loaded by file URL, from source (.ts) and from the build (.js).
import { workerData } from "node:worker_threads";
import type { WalkReport, WalkTask } from "./parallel-walk.ts";

const task = workerData as WalkTask;
try {
  // Loaded here, so that a failure to load them is reported too.
  const [{ ReadRule }, { walkFolders }] = await Promise.all([import("../access/read-rule.ts"), import("./repo-walk.ts")]);
  const files: { path: string; size: number; mtimeMs: number; ctimeMs: number }[] = [];
  const outsideLinks: string[] = [];
  const declined = walkFolders(task.root, new ReadRule(task.root, { secretFiles: task.secretFiles }), task.folders, files, outsideLinks);
  const report: WalkReport = {
    paths: files.map((file) => file.path),
    sizes: Float64Array.from(files, (file) => file.size),
    mtimes: Float64Array.from(files, (file) => file.mtimeMs),
    ctimes: Float64Array.from(files, (file) => file.ctimeMs),
    outsideLinks,
    declined,
  };
  task.port.postMessage(report, [report.sizes.buffer as ArrayBuffer, report.mtimes.buffer as ArrayBuffer, report.ctimes.buffer as ArrayBuffer]);
} catch (error) {
  task.port.postMessage({ error: String(error) });
} finally {
  Atomics.store(task.done, 0, 1);
  Atomics.notify(task.done, 0);
}
