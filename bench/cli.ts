/**
 * CLI start-up benchmark: wall time of `rlmkit --version` and `rlmkit config`
 * (each a new process, as a user runs them) against a bare `node -e 0` in the
 * same run, with the same Node. Measured twice: as installed (a copy of `bin/`,
 * the build in `dist/` and package.json, with no `src/`, which is what `npm
 * install rlmkit` gives), and in this checkout (which runs the TypeScript sources
 * through Node's type stripping, so it is never stale).
 *
 * Run: `npx node bench/cli.ts` (or `npm run bench -- cli`); needs `npm run build` first.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./median.ts";

const ROUNDS = 15;
const ROOT = fileURLToPath(new URL("..", import.meta.url));
if (!existsSync(join(ROOT, "dist/src/cli/main.js"))) throw new Error("bench/cli.ts needs the build: run `npm run build` first.");

// The installed layout: what a consumer's node_modules/rlmkit holds (its dependencies linked, not copied).
const installed = mkdtempSync(join(tmpdir(), "rlmkit-cli-bench-"));
for (const part of ["bin", "dist", "package.json"]) cpSync(join(ROOT, part), join(installed, part), { recursive: true });
symlinkSync(join(ROOT, "node_modules"), join(installed, "node_modules"));

function time(args: readonly string[]): number {
  const started = performance.now();
  // In an empty directory, so no project's config file is read.
  const run = spawnSync(process.execPath, args, { stdio: "ignore", cwd: tmpdir() });
  if (run.status !== 0) throw new Error(`node ${args.join(" ")} exited with ${run.status}`);
  return performance.now() - started;
}

const commands: [string, string[]][] = [
  ["node -e 0", ["-e", "0"]],
  ["installed: rlmkit --version", [join(installed, "bin/rlmkit.js"), "--version"]],
  ["installed: rlmkit config", [join(installed, "bin/rlmkit.js"), "config"]],
  ["installed: rlmkit --help", [join(installed, "bin/rlmkit.js"), "--help"]],
  ["checkout: rlmkit --version", [join(ROOT, "bin/rlmkit.js"), "--version"]],
  ["checkout: rlmkit config", [join(ROOT, "bin/rlmkit.js"), "config"]],
];
const times = new Map<string, number[]>(commands.map(([label]) => [label, []]));
try {
  // Rounds interleave the commands, so a busy spell of the machine hits all of them alike.
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [label, args] of commands) {
      const ms = time(args);
      if (round > 0) times.get(label)!.push(ms);
    }
  }
} finally {
  rmSync(installed, { recursive: true, force: true });
}
const reference = median(times.get("node -e 0")!);
console.log(`\n## CLI start-up (median of ${ROUNDS} runs, each a new process)\n`);
console.table(
  commands.map(([label]) => {
    const ms = median(times.get(label)!);
    return { command: label, time: `${ms.toFixed(0)} ms`, "× node -e 0": `${(ms / reference).toFixed(1)}×` };
  }),
);
