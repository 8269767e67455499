import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createNavTools, isNavError } from "../src/index.ts";

/** Precision and recall of `nav_refs` call sites against Python's `ast`, over some names. */
export interface RefsRecall {
  readonly files: number;
  /** Files Python itself cannot parse (left out on both sides). */
  readonly failed: number;
  readonly names: number;
  /** Distinct (file, line, name) call sites per Python's `ast`, for the names compared. */
  readonly expected: number;
  /** Distinct (file, line, name) sites `nav_refs` calls `call`. */
  readonly found: number;
  readonly matched: number;
  readonly recall: number;
  readonly precision: number;
  /** A few sites found by one side only, for reading. */
  readonly missed: string[];
  readonly extra: string[];
  readonly ms: number;
}

const CALLS_SCRIPT = fileURLToPath(new URL("./python-calls.py", import.meta.url));

/**
 * Runs the comparison on `root`: Python's `ast` lists every call by name in
 * the `.py` files nav indexes; `pickNames` chooses which names to compare
 * (from those calls, with their counts); each is asked of `nav_refs` without
 * a limit and its `call` sites are compared by (file, line, name).
 */
export async function refsRecall(root: string, pickNames: (counts: Map<string, number>) => string[]): Promise<RefsRecall> {
  const nav = await createNavTools(root, { cacheDir: false });
  try {
    const listing = await listPython(nav);
    const python = spawnSync("python3", [CALLS_SCRIPT], { input: `${root}\n${listing.join("\n")}\n`, maxBuffer: 1 << 30, encoding: "utf8" });
    if (python.status !== 0) throw new Error(`python3 failed: ${python.stderr}`);
    const truth = JSON.parse(python.stdout) as { calls: [string, number, string][]; failed: string[] };
    const failed = new Set(truth.failed);
    const counts = new Map<string, number>();
    const expected = new Set<string>();
    for (const [file, line, name] of truth.calls) {
      const key = `${file}:${line}:${name}`;
      if (expected.has(key)) continue;
      expected.add(key);
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    const names = pickNames(counts);
    const wanted = new Set(names);
    for (const key of expected) if (!wanted.has(key.slice(key.lastIndexOf(":") + 1))) expected.delete(key);
    const found = new Set<string>();
    const started = performance.now();
    for (const name of names) {
      const result = await nav.refs(name, { glob: "**/*.py", limit: 10_000_000 });
      if (isNavError(result)) throw new Error(`nav_refs(${name}): ${result.error}`);
      for (const match of result.matches) {
        if (match.reference === "call" && !failed.has(match.path)) found.add(`${match.path}:${match.line}:${name}`);
      }
    }
    const ms = performance.now() - started;
    const matched = [...found].filter((key) => expected.has(key)).length;
    return {
      files: listing.length,
      failed: failed.size,
      names: names.length,
      expected: expected.size,
      found: found.size,
      matched,
      recall: expected.size === 0 ? 1 : matched / expected.size,
      precision: found.size === 0 ? 1 : matched / found.size,
      missed: [...expected].filter((key) => !found.has(key)).slice(0, 15),
      extra: [...found].filter((key) => !expected.has(key)).slice(0, 15),
      ms,
    };
  } finally {
    await nav.close();
  }
}

async function listPython(nav: Awaited<ReturnType<typeof createNavTools>>, directory = ""): Promise<string[]> {
  const listing = await nav.ls(directory);
  if (isNavError(listing) || listing.type !== "dir") return [];
  const files: string[] = [];
  for (const entry of listing.entries) {
    const full = directory ? `${directory}/${entry.name}` : entry.name;
    if (entry.type === "dir") files.push(...(await listPython(nav, full)));
    else if (entry.language === "python" && !entry.large && !entry.binary) files.push(full);
  }
  return files;
}

/** A seeded choice of names: `uniform` drawn evenly over distinct names, `weighted` in proportion to their calls. */
export function sampleNames(counts: Map<string, number>, uniform: number, weighted: number, seed = 1): string[] {
  let state = seed;
  const random = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
  const names = [...counts.keys()].sort();
  const chosen = new Set<string>();
  while (chosen.size < Math.min(uniform, names.length)) chosen.add(names[Math.floor(random() * names.length)]);
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  for (let draws = 0; draws < weighted * 20 && chosen.size < Math.min(uniform + weighted, names.length); draws++) {
    let pick = random() * total;
    for (const name of names) {
      pick -= counts.get(name) ?? 0;
      if (pick <= 0) {
        chosen.add(name);
        break;
      }
    }
  }
  return [...chosen].sort();
}
