/**
 * A child process for the FIFO row of test/access/symlinked-secrets.test.ts: opens the nav tools on the
 * repository given, lists it, turns `piped.txt` into a link to a new FIFO, then searches, outlines and reads it,
 * printing what they answer as one JSON line. A read that blocks on the FIFO would keep it from ever
 * printing, which the test sees as a time-out instead of a hung test run.
 */
import { spawnSync } from "node:child_process";
import { symlinkSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { createNavTools } from "../../src/index.ts";

const repo = process.argv[2]!;
const tools = await createNavTools(repo, { cacheDir: false });
await tools.ls("");
unlinkSync(join(repo, "piped.txt"));
if (spawnSync("mkfifo", [join(repo, "a-fifo")]).status !== 0) throw new Error("mkfifo failed");
symlinkSync("a-fifo", join(repo, "piped.txt"));
const search = await tools.search("PIPE_MARKER");
const outline = await tools.outline("piped.txt");
const read = await tools.read("piped.txt");
await tools.close();
console.log(JSON.stringify({ search, outline, read }));
