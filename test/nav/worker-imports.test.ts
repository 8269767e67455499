/**
 * The search worker is loaded by file URL in a worker thread, from source (.ts) and from the
 * build (.js), so what it loads must stand alone: leaf modules of nav, Node's own modules and
 * small packages, nothing that pulls in the sandbox, tree-sitter or the session. This pins the
 * modules it loads at start; a new import has to be added here on purpose.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const NAV = fileURLToPath(new URL("../../src/nav/", import.meta.url));

// The modules a source file loads when it runs: value imports (not `import type`), followed through relative paths.
function loads(file: string, seen = new Set<string>()): Set<string> {
  const source = fs.readFileSync(file, "utf8");
  for (const match of source.matchAll(/^import\s+(?!type\s)(?:[^"']*?\s+from\s+)?["']([^"']+)["'];?$/gm)) {
    const specifier = match[1]!;
    if (!specifier.startsWith(".")) {
      seen.add(specifier);
      continue;
    }
    const target = path.resolve(path.dirname(file), specifier);
    const name = path.relative(NAV, target).split(path.sep).join("/");
    if (seen.has(name)) continue;
    seen.add(name);
    loads(target, seen);
  }
  return seen;
}

test("the search worker loads only modules that stand alone", () => {
  expect([...loads(path.join(NAV, "search-worker.ts"))].sort()).toEqual(
    [
      "file-filters.ts",
      "file-read.ts",
      "file-rules.ts",
      "line-table.ts",
      "literal-finder.ts",
      "match-layout.ts",
      "node:buffer",
      "node:fs",
      "node:path",
      "node:v8",
      "node:worker_threads",
      "picomatch",
      "text-scan.ts",
      "trigram-filter.ts",
    ].sort(),
  );
});

test("the walk worker loads only the worker plumbing at start (the walk's modules it imports when it runs)", () => {
  expect([...loads(path.join(NAV, "walk-worker.ts"))].sort()).toEqual(["node:worker_threads"]);
});
