import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/** Folders {@link tempDir} made in this test file that are not removed yet. */
const made = new Set<string>();

/**
 * Makes an empty folder in the system's temporary directory, named `prefix`
 * followed by six random characters, and returns its path.
 *
 * The folder, with whatever the test or a child process it started wrote into
 * it, is removed when the test file's tests have finished: importing this
 * module (directly or through a helper such as `test/cli/run-cli.ts`) registers
 * {@link removeTempDirs} as an `afterAll` hook of the importing file, since
 * vitest evaluates each test file's imports afresh. The hook is registered
 * before the file's own hooks, so it runs after them: child processes a file
 * closes in its own `afterAll` are gone before their folders are removed.
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** Removes every folder {@link tempDir} has made so far, with everything in it. */
export async function removeTempDirs(): Promise<void> {
  const dirs = [...made];
  made.clear();
  // Retried: a child process a test stopped may still be writing into its folder for a moment.
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 3 })));
}

afterAll(removeTempDirs);
