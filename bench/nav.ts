/**
 * Code navigation benchmark: cold index build, warm start from the disk cache,
 * and nav_search latency, side by side with ripgrep on the same files.
 *
 * Corpus: the JavaScript and TypeScript files under this project's
 * node_modules (each under 1 MiB), copied into a temporary repository up to
 * three times (a/, b/, c/) until there are 10,000 files.
 *
 * Run: `npx node bench/nav.ts` (or `npm run bench -- nav`). ripgrep comes from
 * Debian's `ripgrep` package; without `rg` on PATH the comparison is skipped.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createNavTools } from "../src/nav/index.ts";
import { median } from "./median.ts";

const PROJECT_ROOT = fileURLToPath(new URL("../", import.meta.url));
const CORPUS_FILES = 10_000;
const REPEATS = 5;
const EXTENSIONS = new Set([".ts", ".js", ".mjs", ".cjs", ".mts", ".cts"]);

interface Query {
  readonly label: string;
  readonly query: string;
  readonly regex: boolean;
  readonly caseSensitive: boolean;
}

const QUERIES: Query[] = [
  { label: "literal, common", query: "function", regex: false, caseSensitive: true },
  { label: "literal, rare", query: "readFileSync", regex: false, caseSensitive: true },
  { label: "literal, case-insensitive", query: "promise<void>", regex: false, caseSensitive: false },
  { label: "regex", query: "export\\s+(async\\s+)?function\\s+\\w+Sync\\b", regex: true, caseSensitive: true },
];

if (process.argv[2] === "--warm") {
  await warmChild(process.argv[3], process.argv[4]);
} else {
  await main();
}

async function main(): Promise<void> {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-nav-bench-"));
  const repo = path.join(base, "repo");
  const cacheDir = path.join(base, "cache");
  try {
    const files = await buildCorpus(repo);
    const bytes = (await Promise.all(files.map((file) => fs.stat(path.join(repo, file))))).reduce((sum, stat) => sum + stat.size, 0);
    console.log(`corpus: ${files.length} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB (JS/TS from node_modules), ${os.cpus().length} cores, Node ${process.version}`);

    let started = performance.now();
    const cold = await createNavTools(repo, { cacheDir });
    const info = await cold.info();
    const coldMs = performance.now() - started;
    console.log(`cold index: ${fmt(coldMs)} for ${info.files} files, ${info.lines.toLocaleString("en-US")} lines, ${info.symbols.toLocaleString("en-US")} symbols (goal < 30 s)`);
    await cold.close();

    const warm = spawnSync(process.execPath, [...(process.env.RLMKIT_BENCH_PROFILE ? ["--cpu-prof", "--cpu-prof-dir", process.env.RLMKIT_BENCH_PROFILE] : []), fileURLToPath(import.meta.url), "--warm", repo, cacheDir], { encoding: "utf8" });
    if (warm.status !== 0) throw new Error(`warm start failed: ${warm.stderr}`);
    console.log(warm.stdout.trim());

    const nav = await createNavTools(repo, { cacheDir });
    const rg = spawnSync("rg", ["--version"], { encoding: "utf8" });
    const hasRg = rg.status === 0;
    if (!hasRg) console.log("ripgrep (rg) is not on PATH: the comparison is skipped (apt-get install ripgrep)");
    console.log("");
    console.log("| query | matching lines | nav_search first | nav_search warm (median) | nav_search limit 50 (median) | rg (median) | warm / rg |");
    console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const query of QUERIES) {
      const options = { regex: query.regex, caseSensitive: query.caseSensitive };
      started = performance.now();
      const first = await nav.search(query.query, { ...options, limit: 10_000_000 });
      const firstMs = performance.now() - started;
      if ("error" in first) throw new Error(first.error);
      const full: number[] = [];
      const limited: number[] = [];
      for (let repeat = 0; repeat < REPEATS; repeat++) {
        started = performance.now();
        await nav.search(query.query, { ...options, limit: 10_000_000 });
        full.push(performance.now() - started);
        started = performance.now();
        await nav.search(query.query, options);
        limited.push(performance.now() - started);
      }
      let rgCell = "skipped";
      let ratio = "—";
      if (hasRg) {
        const args = ["--no-config", "--hidden", "--no-ignore", "--max-filesize", "1M", "-n", "--column", ...(query.caseSensitive ? ["-s"] : ["-i"]), ...(query.regex ? ["-e", query.query] : ["-F", "-e", query.query]), "."];
        const times: number[] = [];
        let lines = 0;
        for (let repeat = 0; repeat < REPEATS + 1; repeat++) {
          started = performance.now();
          const run = spawnSync("rg", args, { cwd: repo, encoding: "utf8", maxBuffer: 1 << 30 });
          const elapsed = performance.now() - started;
          if (repeat > 0) times.push(elapsed);
          lines = run.stdout.split("\n").filter(Boolean).length;
        }
        rgCell = `${fmt(median(times))} (${lines} lines)`;
        ratio = `${(median(full) / median(times)).toFixed(2)}×`;
      }
      console.log(`| ${query.label}: \`${query.query}\` | ${first.matches.length} | ${fmt(firstMs)} | ${fmt(median(full))} | ${fmt(median(limited))} | ${rgCell} | ${ratio} |`);
    }
    await nav.close();
  } finally {
    await fs.rm(base, { recursive: true, force: true });
  }
}

async function warmChild(repo: string, cacheDir: string): Promise<void> {
  const started = performance.now();
  const nav = await createNavTools(repo, { cacheDir });
  const info = await nav.info();
  const elapsed = performance.now() - started;
  const stats = nav.stats();
  await nav.close();
  console.log(`warm start (new process, disk cache): ${fmt(elapsed)} to nav_info over ${info.files} files (${stats.fromCache} from cache, ${stats.analyzed} parsed) (goal < 1 s)`);
}

async function buildCorpus(repo: string): Promise<string[]> {
  const sources: string[] = [];
  const modules = path.join(PROJECT_ROOT, "node_modules");
  for (const entry of await fs.readdir(modules, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !EXTENSIONS.has(path.extname(entry.name))) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    if ((await fs.stat(absolute)).size < 1024 * 1024) sources.push(path.relative(modules, absolute));
  }
  sources.sort();
  const files: string[] = [];
  for (const copy of ["a", "b", "c"]) {
    for (const source of sources) {
      if (files.length >= CORPUS_FILES) break;
      const target = path.join(copy, source);
      await fs.mkdir(path.join(repo, path.dirname(target)), { recursive: true });
      await fs.copyFile(path.join(modules, source), path.join(repo, target));
      files.push(target);
    }
  }
  return files;
}

function fmt(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
}
