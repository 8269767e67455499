/**
 * `nav_refs` against Python's own parser: on a Python corpus that ships with
 * the machine (Debian's standard library, /usr/lib/python3.11, or the
 * directory given), the call sites `nav_refs` reports for a seeded sample of
 * called names are compared with every `ast.Call` by name, by (file, line,
 * name). Prints recall, precision and the time the queries took.
 *
 * Run: `npx node bench/refs.ts [dir]` (or `npm run bench -- refs`); needs `python3`.
 */
import fs from "node:fs";
import { refsRecall, sampleNames } from "./refs-recall.ts";

const root = process.argv[2] ?? "/usr/lib/python3.11";
if (!fs.existsSync(root)) {
  console.log(`skipped: ${root} does not exist (pass a directory of Python code)`);
  process.exit(0);
}
const UNIFORM = 100;
const WEIGHTED = 30;
const result = await refsRecall(root, (counts) => sampleNames(counts, UNIFORM, WEIGHTED));
console.log(`corpus: ${root}, ${result.files} Python files (${result.failed} Python itself cannot parse, left out)`);
console.log(`names: ${result.names} (${UNIFORM} drawn evenly over the distinct called names, up to ${WEIGHTED} more in proportion to their calls; seed 1)`);
console.log(`call sites per ast: ${result.expected}; per nav_refs: ${result.found}; both: ${result.matched}`);
console.log(`recall ${result.recall.toFixed(4)}, precision ${result.precision.toFixed(4)} (goal ≥ 0.9 each)`);
console.log(`nav_refs time: ${(result.ms / 1000).toFixed(1)} s for ${result.names} names, ${(result.ms / result.names).toFixed(0)} ms per name`);
if (result.missed.length) console.log(`some missed:\n  ${result.missed.join("\n  ")}`);
if (result.extra.length) console.log(`some extra:\n  ${result.extra.join("\n  ")}`);
