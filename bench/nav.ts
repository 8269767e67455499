/**
 * Code navigation benchmark, side by side with ripgrep on the same files, on
 * two corpora of Python code that ship with the machine:
 *
 * - "stdlib": every `.py` file of Debian's system Python (`/usr/lib/python3.11`)
 *   and its packages (`/usr/lib/python3/dist-packages`), copied into a
 *   temporary repository (about 2,000 files, 28 MB).
 * - "installation": a whole Python installation, indexed where it lies: the
 *   directory in RLMKIT_BENCH_INSTALLATION, or else the largest
 *   `~/.pyenv/versions/<v>/lib/python3.<n>` (sources, tests, byte-code caches,
 *   extension modules: about 50,000 files, 800 MB); without either, the Debian
 *   Python trees above with all their files, copied until there are 50,000 files.
 *
 * For each: processes that only search, one after another from a new cache (as
 * `rlmkit nav search` runs), cold index (a new process, no cache), warm start (a new process,
 * disk cache), for every query the first search of a new process (disk cache
 * warm; the median of FIRST_RUNS such processes) and the median of repeated searches
 * in one process (after a first search of that query, in a process that has searched
 * before), each against the median of rg's runs for the same query (each a new
 * process); peak RSS and cores used (CPU time over wall time, all threads) of the
 * indexing and searching processes; and, beside the cold index, tree-sitter alone parsing the same
 * files on as many processes as an index has workers (bench/parse-reference.ts), the machine's own
 * speed at most of an index's work.
 *
 * Run: `npm run build && npm run bench -- nav` (or `npx node bench/nav.ts [stdlib|installation]`).
 * It measures the build (dist/), as a package user runs it.
 * ripgrep comes from Debian's `ripgrep` package and is required.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createNavTools } from "../dist/src/nav/index.js";
import { median } from "./median.ts";

const REPEATS = 5;
/** New processes per query for the first search: one process is one sample, and one sample is noise on a machine that does anything else. */
const FIRST_RUNS = 5;
const ALL = 10_000_000;
// Searches that return every match can take long on a loaded machine; the bench measures them, it does not cut them off.
const SEARCH_TIMEOUT_MS = 120_000;
const DEBIAN_TREES = ["/usr/lib/python3.11", "/usr/lib/python3/dist-packages"];
const INSTALLATION_FILES = 50_000;

interface Query {
  readonly label: string;
  readonly query: string;
  readonly regex: boolean;
  readonly caseSensitive: boolean;
}

const QUERIES: Query[] = [
  { label: "literal, ~60,000 lines in stdlib", query: "self.", regex: false, caseSensitive: true },
  { label: "literal, common", query: "def ", regex: false, caseSensitive: true },
  { label: "literal, rare", query: "subprocess.Popen", regex: false, caseSensitive: true },
  { label: "literal, case-insensitive", query: "todo", regex: false, caseSensitive: false },
  { label: "regex, classes ending in Error", query: String.raw`^\s*class\s+\w+Error\b`, regex: true, caseSensitive: true },
  { label: "regex, methods", query: String.raw`def\s+\w+\(self`, regex: true, caseSensitive: true },
  { label: "regex, alternation", query: String.raw`import\s+(os|sys)\b`, regex: true, caseSensitive: true },
  { label: "regex, case-insensitive", query: String.raw`\bhttps?://\w+`, regex: true, caseSensitive: false },
];

/** The searches of the search-only processes, in order: a rare literal, one in no file (it reads every file the first did not), then two more rare ones. */
const ONCE_QUERIES = ["subprocess.Popen", "rlmkit bench: in no file", "asyncio.Queue(", "subprocess.Popen"];

/** A pattern that backtracks exponentially on a backtracking engine. */
const CATASTROPHIC: Query = { label: "nested repetition", query: String.raw`^(\w+\s?)+:$`, regex: true, caseSensitive: true };

interface ProcessFigures {
  readonly ms: number;
  readonly cpuMs: number;
  readonly rssMb: number;
  readonly note: string;
}

const mode = process.argv[2];
if (mode === "--cold" || mode === "--warm") await indexChild(process.argv[3], process.argv[4]);
else if (mode === "--first") await firstSearchChild(process.argv[3], process.argv[4], Number(process.argv[5]));
else if (mode === "--repeat") await repeatedSearchChild(process.argv[3], process.argv[4]);
else if (mode === "--once") await searchOnceChild(process.argv[3], process.argv[4], process.argv[5]);
else await main(mode);

async function main(only: string | undefined): Promise<void> {
  await checkBuild();
  if (spawnSync("rg", ["--version"]).status !== 0) {
    console.error("bench/nav.ts compares with ripgrep, and `rg` is not on the PATH: install it (Debian: apt-get install ripgrep)");
    process.exit(1);
  }
  const rgVersion = spawnSync("rg", ["--version"], { encoding: "utf8" }).stdout.split("\n")[0];
  console.log(`${os.cpus().length} cores, load average ${os.loadavg().map((load) => load.toFixed(1)).join(" ")}, Node ${process.version}, ${rgVersion}`);
  const base = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-nav-bench-"));
  try {
    if (!only || only === "stdlib") await benchCorpus("stdlib", await buildStdlib(path.join(base, "stdlib")), path.join(base, "cache-stdlib"));
    if (!only || only === "installation") await benchCorpus("installation", await findInstallation(path.join(base, "installation")), path.join(base, "cache-installation"));
  } finally {
    await fs.rm(base, { recursive: true, force: true });
  }
}

async function benchCorpus(name: string, corpus: { root: string; how: string }, cacheDir: string): Promise<void> {
  console.log(`\n## ${name}: ${corpus.how}`);
  searchOnlyProcesses(corpus.root, `${cacheDir}-search-only`);
  const cold = child(["--cold", corpus.root, cacheDir]);
  console.log(`cold index (new process, no cache): ${fmt(cold.ms)}, ${cores(cold)} cores, peak RSS ${cold.rssMb.toFixed(0)} MB — ${cold.note}`);
  // Loaded here, not by the children whose first searches are timed.
  const { parseReference } = await import("./parse-reference.ts");
  const parse = await parseReference(corpus.root);
  console.log(`tree-sitter alone, parsing the same files (${parse.files.toLocaleString("en-US")}, ${(parse.bytes / 1e6).toFixed(0)} MB) in ${parse.processes} processes: ${fmt(parse.ms)}; cold index / parse ${(cold.ms / parse.ms).toFixed(2)}×`);
  const warm = child(["--warm", corpus.root, cacheDir]);
  console.log(`warm start (new process, disk cache, until nav_info answers): ${fmt(warm.ms)}, peak RSS ${warm.rssMb.toFixed(0)} MB — ${warm.note}`);
  const repeated = child(["--repeat", corpus.root, cacheDir]);
  const repeatedMs = JSON.parse(repeated.note) as { medians: number[]; lines: number[]; catastrophic: { ms: number; result: string } };
  console.log(`searching process: peak RSS ${repeated.rssMb.toFixed(0)} MB, ${cores(repeated)} cores over its life`);
  console.log("");
  console.log(`| query | nav lines | rg lines | first search (new process, median of ${FIRST_RUNS}; range) | rg (median of ${REPEATS + FIRST_RUNS}) | first / rg | repeated (median) | rg (median) | repeated / rg |`);
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  QUERIES.forEach((query, index) => {
    // Each a new process, alternating with rg's runs, so that both meet the same state of the machine.
    const firsts: number[] = [];
    const rgTimes: number[] = [];
    let rgLines = 0;
    for (let run = 0; run < FIRST_RUNS; run++) {
      firsts.push(child(["--first", corpus.root, cacheDir, String(index)]).ms);
      const rg = ripgrep(corpus.root, query, run === 0 ? REPEATS : 0);
      rgTimes.push(...rg.times);
      rgLines = rg.lines;
    }
    const first = median(firsts);
    const rgMs = median(rgTimes);
    const repeatedNav = repeatedMs.medians[index];
    console.log(
      `| ${query.label}: \`${query.query}\`${query.caseSensitive ? "" : " (-i)"} | ${repeatedMs.lines[index]} | ${rgLines} | ${fmt(first)} (${fmt(Math.min(...firsts))}–${fmt(Math.max(...firsts))}) | ${fmt(rgMs)} | ${(first / rgMs).toFixed(2)}× | ${fmt(repeatedNav)} | ${fmt(rgMs)} | ${(repeatedNav / rgMs).toFixed(2)}× |`,
    );
  });
  const rgCatastrophic = ripgrep(corpus.root, CATASTROPHIC);
  console.log(`\ncatastrophic pattern \`${CATASTROPHIC.query}\`, default limit (50): ${fmt(repeatedMs.catastrophic.ms)}, ${repeatedMs.catastrophic.result}; rg with every match: ${fmt(median(rgCatastrophic.times))}, ${rgCatastrophic.lines} lines`);
}

// Runs this file in a new process and reads its figures.
function child(args: string[]): ProcessFigures {
  const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...args], { encoding: "utf8", maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`${args[0]} failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").at(-1)!) as ProcessFigures;
}

function report(started: number, cpu: NodeJS.CpuUsage, note: string): void {
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  console.log(JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000, rssMb: process.resourceUsage().maxRSS / 1024, note } satisfies ProcessFigures));
}

async function indexChild(root: string, cacheDir: string): Promise<void> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const nav = await createNavTools(root, { cacheDir });
  const info = await nav.info();
  const stats = nav.stats();
  await nav.close();
  report(started, cpu, `${info.files.toLocaleString("en-US")} files, ${(info.bytes / 1e6).toFixed(0)} MB, ${info.lines.toLocaleString("en-US")} lines, ${info.symbols.toLocaleString("en-US")} symbols; ${stats.analyzed} parsed, ${stats.fromCache} from the cache`);
}

async function firstSearchChild(root: string, cacheDir: string, index: number): Promise<void> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const nav = await createNavTools(root, { cacheDir, searchTimeoutMs: SEARCH_TIMEOUT_MS });
  const query = QUERIES[index];
  const result = await nav.search(query.query, { regex: query.regex, caseSensitive: query.caseSensitive, limit: ALL });
  if ("error" in result) throw new Error(result.error);
  report(started, cpu, `${result.matches.length}`);
  await nav.close();
}

// Processes that each run one search and close, as `rlmkit nav search` does, from a new cache:
// the first leaves trigram filters of the files it read for the next ones.
function searchOnlyProcesses(root: string, cacheDir: string): void {
  const rare = QUERIES.find((query) => query.label.startsWith("literal, rare"))!;
  const times = ONCE_QUERIES.map((query) => `${fmt(child(["--once", root, cacheDir, query]).ms)} (\`${query}\`)`);
  const rg = ripgrep(root, { ...rare, query: ONCE_QUERIES[0]! });
  console.log(`search-only processes (a new cache, one search of the default limit each, as \`rlmkit nav search\` runs; until the cache is written): ${times.join(", ")}; rg ${fmt(rg.times[0]!)} for \`${ONCE_QUERIES[0]}\``);
}

async function searchOnceChild(root: string, cacheDir: string, query: string): Promise<void> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const nav = await createNavTools(root, { cacheDir, searchTimeoutMs: SEARCH_TIMEOUT_MS });
  const result = await nav.search(query, { caseSensitive: true });
  if ("error" in result) throw new Error(result.error);
  await nav.close();
  report(started, cpu, `${result.matches.length}`);
}

async function repeatedSearchChild(root: string, cacheDir: string): Promise<void> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const nav = await createNavTools(root, { cacheDir, searchTimeoutMs: SEARCH_TIMEOUT_MS });
  // The first literal search of a process runs on the calling thread while the workers read the
  // files in the background; repeated searches are those of a process whose workers hold them.
  const warmUp = await nav.search("rlmkit bench warm-up", { caseSensitive: true });
  if ("error" in warmUp) throw new Error(warmUp.error);
  const medians: number[] = [];
  const lines: number[] = [];
  for (const query of QUERIES) {
    const options = { regex: query.regex, caseSensitive: query.caseSensitive, limit: ALL };
    const first = await nav.search(query.query, options);
    if ("error" in first) throw new Error(first.error);
    lines.push(first.matches.length);
    const times: number[] = [];
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      const at = performance.now();
      await nav.search(query.query, options);
      times.push(performance.now() - at);
    }
    medians.push(median(times));
  }
  const at = performance.now();
  const catastrophic = await nav.search(CATASTROPHIC.query, { regex: true, caseSensitive: true });
  const catastrophicMs = performance.now() - at;
  const result = "error" in catastrophic ? `error: ${catastrophic.error}` : `${catastrophic.matches.length} matches${catastrophic.truncated ? " (truncated)" : ""}`;
  await nav.close();
  report(started, cpu, JSON.stringify({ medians, lines, catastrophic: { ms: catastrophicMs, result } }));
}

// rg's times for one query: a run, then `repeats` more (each a new process); and its line count.
function ripgrep(root: string, query: Query, repeats = REPEATS): { times: number[]; lines: number } {
  const args = ["--no-config", "--no-require-git", "--hidden", "--max-filesize", "1M", "-n", "--column", query.caseSensitive ? "-s" : "-i", ...(query.regex ? ["-e", query.query] : ["-F", "-e", query.query]), "."];
  const times: number[] = [];
  let lines = 0;
  for (let repeat = 0; repeat <= repeats; repeat++) {
    const started = performance.now();
    const run = spawnSync("rg", args, { cwd: root, encoding: "utf8", maxBuffer: 1 << 30 });
    times.push(performance.now() - started);
    lines = run.stdout.split("\n").filter(Boolean).length;
  }
  return { times, lines };
}

async function buildStdlib(root: string): Promise<{ root: string; how: string }> {
  let files = 0;
  let bytes = 0;
  for (const tree of DEBIAN_TREES) {
    for (const entry of await fs.readdir(tree, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith(".py")) continue;
      const source = path.join(entry.parentPath, entry.name);
      const target = path.join(root, path.basename(tree), path.relative(tree, source));
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.copyFile(source, target);
      bytes += (await fs.stat(target)).size;
      files++;
    }
  }
  if (files === 0) throw new Error(`no Python files under ${DEBIAN_TREES.join(" or ")} (Debian: apt-get install python3)`);
  return { root, how: `${files.toLocaleString("en-US")} .py files, ${(bytes / 1e6).toFixed(0)} MB, from ${DEBIAN_TREES.join(" and ")}, copied` };
}

async function findInstallation(copyRoot: string): Promise<{ root: string; how: string }> {
  const candidates: string[] = [];
  if (process.env.RLMKIT_BENCH_INSTALLATION) candidates.push(process.env.RLMKIT_BENCH_INSTALLATION);
  const pyenv = path.join(os.homedir(), ".pyenv", "versions");
  for (const version of await fs.readdir(pyenv).catch(() => [] as string[])) {
    for (const lib of await fs.readdir(path.join(pyenv, version, "lib")).catch(() => [] as string[])) {
      if (/^python3\.\d+$/.test(lib)) candidates.push(path.join(pyenv, version, "lib", lib));
    }
  }
  let best: { root: string; files: number; bytes: number } | undefined;
  for (const candidate of candidates) {
    const { files, bytes } = await countTree(candidate);
    if (candidate === process.env.RLMKIT_BENCH_INSTALLATION || !best || files > best.files) best = { root: candidate, files, bytes };
    if (candidate === process.env.RLMKIT_BENCH_INSTALLATION) break;
  }
  if (best) return { root: best.root, how: `a whole Python installation, ${best.root} in place: ${best.files.toLocaleString("en-US")} files, ${(best.bytes / 1e6).toFixed(0)} MB` };
  let files = 0;
  let bytes = 0;
  for (let copy = 1; files < INSTALLATION_FILES; copy++) {
    for (const tree of DEBIAN_TREES) {
      const target = path.join(copyRoot, `copy${copy}`, path.basename(tree));
      await fs.cp(tree, target, { recursive: true, verbatimSymlinks: true });
      const counted = await countTree(target);
      files += counted.files;
      bytes += counted.bytes;
    }
  }
  return { root: copyRoot, how: `${DEBIAN_TREES.join(" and ")} with all their files, copied until there are ${INSTALLATION_FILES.toLocaleString("en-US")}: ${files.toLocaleString("en-US")} files, ${(bytes / 1e6).toFixed(0)} MB` };
}

async function countTree(root: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files++;
    bytes += (await fs.stat(path.join(entry.parentPath, entry.name))).size;
  }
  return { files, bytes };
}

// The bench measures the build, as a package user runs it (from source, Node strips types from each module first).
async function checkBuild(): Promise<void> {
  const built = await fs.stat(fileURLToPath(new URL("../dist/src/nav/index.js", import.meta.url))).catch(() => undefined);
  const sources = fileURLToPath(new URL("../src/nav/", import.meta.url));
  const newest = Math.max(...(await Promise.all((await fs.readdir(sources)).map(async (name) => (await fs.stat(path.join(sources, name))).mtimeMs))));
  if (!built || built.mtimeMs < newest) {
    console.error("bench/nav.ts measures the build (dist/), which is missing or older than src/nav: run `npm run build` first");
    process.exit(1);
  }
}

function cores(figures: ProcessFigures): string {
  return (figures.cpuMs / figures.ms).toFixed(2);
}

function fmt(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
}
