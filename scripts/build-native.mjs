// Builds rlmkit's native addon (native/) with node-gyp when `npm install` runs: a first search's
// scan of many files and a walk's `stat`s, on threads of their own. The addon is optional. When
// it cannot be built (no C++ compiler, no node-gyp, Windows), this says so and the install goes
// on: the same work then runs in JavaScript, slower. RLMKIT_NATIVE_ADDON=0 skips the build.
// Plain JavaScript, so that it runs on whichever Node runs npm.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const native = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "native");

function skip(why) {
  console.warn(`rlmkit: the native addon was not built (${why}); searches and walks run in JavaScript instead.`);
  process.exit(0);
}

if (process.env.RLMKIT_NATIVE_ADDON === "0") skip("RLMKIT_NATIVE_ADDON=0");
if (process.platform === "win32") skip("not supported on Windows");
if (!fs.existsSync(path.join(native, "binding.gyp"))) skip("native/binding.gyp is missing");

// npm names its own node-gyp to the scripts it runs; else one on the PATH.
const gyp = process.env.npm_config_node_gyp;
const command = gyp ? process.execPath : "node-gyp";
const args = [...(gyp ? [gyp] : []), "rebuild", "--release", "--directory", native];
// The headers of the Node that runs this, when it ships them (then nothing is downloaded).
const headers = path.resolve(path.dirname(process.execPath), "..", "include", "node");
if (fs.existsSync(path.join(headers, "node_api.h")) && fs.existsSync(path.join(headers, "common.gypi"))) args.push(`--nodedir=${path.resolve(headers, "..", "..")}`);
// Bounded: node-gyp downloads headers when the running Node ships none, which a network that drops
// packets could make wait for ever.
const built = spawnSync(command, args, { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8", timeout: 10 * 60_000 });
if (built.error || built.status !== 0) skip(`node-gyp failed: ${built.error ? built.error.message : why(built.stderr)}`);

// What node-gyp said went wrong: its first error lines, without its progress and its closing footer.
function why(stderr) {
  const footer = /^gyp ERR! (cwd|node -v|node-gyp -v|not ok|command|System|stack|\$npm_)/;
  const lines = stderr.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("gyp info") && !footer.test(line));
  const errors = lines.filter((line) => /error|ERR!|not found|No such file/i.test(line));
  return (errors.length > 0 ? errors : lines).slice(0, 3).join(" | ") || "no message";
}
