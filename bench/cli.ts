/**
 * CLI start-up benchmark: wall time of `rlmkit --version` and `rlmkit config`
 * (each a new process, as a user runs them) against a bare `node -e 0` in the
 * same run, with the same Node.
 *
 * Run: `npx node bench/cli.ts` (or `npm run bench -- cli`).
 */
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { median } from "./median.ts";

const ROUNDS = 15;
const BIN = fileURLToPath(new URL("../bin/rlmkit.js", import.meta.url));

function time(args: readonly string[]): number {
  const started = performance.now();
  // In an empty directory, so no project's config file is read.
  const run = spawnSync(process.execPath, args, { stdio: "ignore", cwd: tmpdir() });
  if (run.status !== 0) throw new Error(`node ${args.join(" ")} exited with ${run.status}`);
  return performance.now() - started;
}

const commands: [string, string[]][] = [
  ["node -e 0", ["-e", "0"]],
  ["rlmkit --version", [BIN, "--version"]],
  ["rlmkit config", [BIN, "config"]],
];
const times = new Map<string, number[]>(commands.map(([label]) => [label, []]));
// Rounds interleave the commands, so a busy spell of the machine hits all of them alike.
for (let round = 0; round <= ROUNDS; round++) {
  for (const [label, args] of commands) {
    const ms = time(args);
    if (round > 0) times.get(label)!.push(ms);
  }
}
const reference = median(times.get("node -e 0")!);
console.log(`\n## CLI start-up (median of ${ROUNDS} runs, each a new process)\n`);
console.table(
  commands.map(([label]) => {
    const ms = median(times.get(label)!);
    return { command: label, time: `${ms.toFixed(0)} ms`, "× node -e 0": `${(ms / reference).toFixed(1)}×` };
  }),
);
