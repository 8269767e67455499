// Walks some folders of a repository for a walk on another thread (see parallel-walk.ts).
// Loaded by file URL, from source (.ts) and from the build (.js).
import { workerData } from "node:worker_threads";
import type { WalkTask } from "./parallel-walk.ts";

const task = workerData as WalkTask;
// The waiting thread gives up on a helper that does not start: this one has.
Atomics.store(task.flags, 0, 1);
Atomics.notify(task.flags, 0);
try {
  // Loaded here, so that a failure to load them is reported too.
  const [{ ReadRule }, { walkFolders }, { walkReport }] = await Promise.all([import("../access/read-rule.ts"), import("./repo-walk.ts"), import("./parallel-walk.ts")]);
  const report = walkReport(walkFolders(task.root, new ReadRule(task.root, task.rule), task.folders));
  task.port.postMessage(report, [report.sizes.buffer as ArrayBuffer, report.mtimes.buffer as ArrayBuffer, report.ctimes.buffer as ArrayBuffer, report.devs.buffer as ArrayBuffer, report.inos.buffer as ArrayBuffer]);
} catch (error) {
  task.port.postMessage({ error: String(error) });
} finally {
  Atomics.store(task.flags, 1, 1);
  Atomics.notify(task.flags, 1);
}
