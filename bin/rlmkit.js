#!/usr/bin/env node
// The rlmkit command line. In a source checkout on a Node with type stripping
// (Node 24), it runs the TypeScript sources directly, so it is never stale;
// in an installed package (no src/), it runs the build in dist/.
import { existsSync, readFileSync } from "node:fs";
import module from "node:module";
import { fileURLToPath } from "node:url";

// isolated-vm 7 ships Node 24 builds only; say so instead of failing deep in its loader.
const nodeMajor = Number(process.versions.node.split(".")[0]);
if (nodeMajor < 24) {
  const home = fileURLToPath(new URL("..", import.meta.url));
  const pinned = `${home}node_modules/.bin/node`;
  const hint = existsSync(pinned) ? `run it with the Node 24 its checkout installs: ${pinned} ${home}bin/rlmkit.js (or \`npx rlmkit\` inside ${home}).` : "install Node 24 and run it again.";
  process.stderr.write(`rlmkit: needs Node 24 or newer, and this is Node ${process.versions.node}; ${hint}\n`);
  process.exit(1);
}

// `--version` alone needs nothing but package.json: answer it before loading the command line.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version}\n`);
  process.exit(0);
}

// Node keeps the compiled code of the modules below on disk (in the OS temp folder) and
// reuses it on the next start; a read-only or missing cache only costs that time.
module.enableCompileCache?.();

const source = new URL("../src/cli/main.ts", import.meta.url);
const built = new URL("../dist/src/cli/main.js", import.meta.url);
const useSource = existsSync(source) && process.features?.typescript;
if (!useSource && !existsSync(built)) {
  process.stderr.write("rlmkit: the command line is not built; run `npm run build` (or use Node 24, which runs the sources directly).\n");
  process.exit(1);
}
const { main } = await import(useSource ? source.href : built.href);
const outcome = await main(process.argv.slice(2));
if (outcome !== "serving") {
  // Exit once pending output is flushed, without waiting for idle handles (sandboxes, sockets).
  process.stdout.write("", () => process.stderr.write("", () => process.exit(outcome)));
}
