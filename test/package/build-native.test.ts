/**
 * The install script's build of the native addon is optional: when it is skipped or cannot run,
 * `npm install` goes on (exit 0) and one line says why, naming what failed.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const script = fileURLToPath(new URL("../../scripts/build-native.mjs", import.meta.url));

test.for([
  ["turned off", { RLMKIT_NATIVE_ADDON: "0" }, "RLMKIT_NATIVE_ADDON=0"],
  // npm names its node-gyp to the scripts it runs; one that is not there fails at once, before anything is built.
  ["node-gyp missing", { npm_config_node_gyp: "/nonexistent/node-gyp.js" }, "node-gyp failed: "],
])("goes on with a warning when %s", ([, env, reason]) => {
  const run = spawnSync(process.execPath, [script], { encoding: "utf8", env: { ...process.env, ...(env as Record<string, string>) }, timeout: 30_000 });
  expect(run.status).toBe(0);
  const lines = run.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^rlmkit: the native addon was not built \(.+\); searches and walks run in JavaScript instead\.$/);
  expect(lines[0]).toContain(reason);
});
