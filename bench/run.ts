/**
 * `npm run bench`: every benchmark, one after the other. Figures go to stdout;
 * DOCS/PERFORMANCE.md records them with how they were produced.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv[2];
for (const name of ["orchestrator", "cli", "nav", "refs", "load", "parser", "validation"]) {
  if (only && only !== name) continue;
  const file = join(here, `${name}.ts`);
  if (!existsSync(file)) continue;
  console.log(`\n# bench/${name}.ts`);
  const run = spawnSync(process.execPath, [file], { stdio: "inherit" });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
