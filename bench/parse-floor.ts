/**
 * The floor under the nav bench's cold index on this machine: tree-sitter's own C parser, the runtime and
 * the Python grammar compiled with `gcc -O2` from the sources in their npm packages (`tree-sitter`,
 * `tree-sitter-python`, the grammar version rlmkit's `.wasm` is built from), parsing the Python files an
 * index of ROOT parses, in as many processes as an index has workers, each taking every n-th file, reading
 * included and nothing else: no walk, no symbols, no cache. In the same run, alternated with it, the nav
 * bench's own reference (web-tree-sitter, bench/parse-reference.ts), which parses every language.
 *
 * An index must at least parse every file, so no index built on tree-sitter, native or not, can build
 * faster than this on the machine it runs on.
 *
 * Not part of `npm run bench`: it needs gcc and fetches two packages from the npm registry into a
 * temporary folder. Run: `npm run build && node bench/parse-floor.ts ROOT [rounds]`.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { indexWorkerCount } from "../dist/src/nav/index-workers.js";
import { walkRepository } from "../dist/src/nav/repo-walk.js";
import { parsedAs, parseReference } from "./parse-reference.ts";

const SOURCES = ["tree-sitter@0.25.1", "tree-sitter-python@0.25.0"];

interface Share {
  readonly ms: number;
  readonly files: number;
  readonly bytes: number;
}

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: "utf8" });
  if (result.error || result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${result.error?.message ?? result.stderr}`);
  return result.stdout;
}

/** Builds the C parser in `folder` from the npm packages' sources and answers the program's path. */
function build(folder: string): string {
  run("npm", ["pack", "--silent", ...SOURCES], folder);
  for (const archive of readdirSync(folder).filter((name) => name.endsWith(".tgz"))) {
    const into = path.join(folder, archive.replace(/-[\d.]+\.tgz$/, ""));
    mkdirSync(into, { recursive: true });
    run("tar", ["xzf", archive, "-C", into, "--strip-components=1"], folder);
  }
  const runtime = path.join(folder, "tree-sitter", "vendor", "tree-sitter", "lib");
  const grammar = path.join(folder, "tree-sitter-python", "src");
  const program = path.join(folder, "parse-floor");
  const source = path.join(path.dirname(fileURLToPath(import.meta.url)), "parse-floor.c");
  run("gcc", ["-O2", `-I${runtime}/include`, `-I${runtime}/src`, `-I${grammar}`, source, `${runtime}/src/lib.c`, `${grammar}/parser.c`, `${grammar}/scanner.c`, "-o", program], folder);
  return program;
}

function parseShare(program: string, list: string): Promise<Share> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, [list], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(JSON.parse(out) as Share) : reject(new Error(`a parse share exited with ${code}`))));
  });
}

async function main(root: string, rounds: number): Promise<void> {
  const folder = mkdtempSync(path.join(os.tmpdir(), "rlmkit-parse-floor-"));
  try {
    const program = build(folder);
    const processes = indexWorkerCount();
    const lists: string[][] = Array.from({ length: processes }, () => []);
    let python = 0;
    let other = 0;
    let count = 0;
    for (const file of walkRepository(root).files) {
      const parsed = parsedAs(root, file);
      if (!parsed) continue;
      if (parsed.grammar !== "python") {
        other += parsed.buffer.length;
        continue;
      }
      python += parsed.buffer.length;
      lists[count++ % processes]!.push(path.join(root, file.path));
    }
    const files = lists.map((paths, part) => {
      const list = path.join(folder, `share-${part}.txt`);
      writeFileSync(list, paths.join("\n") + "\n");
      return list;
    });
    console.log(`${count.toLocaleString("en-US")} Python files (${(python / 1e6).toFixed(0)} MB) of ${root}; other languages, left out of the floor: ${(other / 1e6).toFixed(1)} MB`);
    for (let round = 1; round <= rounds; round++) {
      const shares = await Promise.all(files.map((list) => parseShare(program, list)));
      const floor = Math.max(...shares.map((share) => share.ms));
      const reference = await parseReference(root);
      console.log(
        `round ${round}: tree-sitter's C parser ${(floor / 1000).toFixed(2)} s on ${processes} processes; web-tree-sitter (the nav bench's reference) ${(reference.ms / 1000).toFixed(2)} s; reference / floor ${(reference.ms / floor).toFixed(2)}×`,
      );
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const [root, rounds] = process.argv.slice(2);
if (!root) {
  console.error("usage: node bench/parse-floor.ts ROOT [rounds]");
  process.exit(2);
}
await main(path.resolve(root), Number(rounds ?? 2));
