import type { ChildProcess } from "node:child_process";

/** How a child process ended, and how long after it was asked to. */
export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly afterMs: number;
}

/**
 * Resolves when `child` exits, with the time since this was called; if it is
 * still running after `withinMs`, kills it and rejects (so a test that waits
 * on a process that should have exited fails fast instead of hanging).
 */
export function exitWithin(child: ChildProcess, withinMs: number, what: string): Promise<ChildExit> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode, afterMs: 0 });
      return;
    }
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${what} was still running ${withinMs} ms later`));
    }, withinMs);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, afterMs: performance.now() - start });
    });
  });
}
