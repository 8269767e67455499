/**
 * Tool-call parser benchmark: a 1 MB reply holding 1,000 `json`-protocol calls (and
 * the same reply as `tagged` blocks), parsed by the streaming parser fed in 1-character
 * and 64-character chunks and as one string. The reference is `JSON.parse` of the same
 * 1,000 call objects, measured in the same run: it is the floor for any parser that
 * has to find and read the calls. Median of 10 rounds each, after 3 warm-up rounds.
 *
 * Run: npm run bench -- parser   (or: npx node bench/parser.ts)
 */
import { createToolCallParser, parseToolCalls, type ToolCallProtocol } from "../src/index.ts";
import { median } from "./median.ts";

const ROUNDS = 10;
const CALLS = 1_000;
const TOOLS = [{ name: "nav_search" }, { name: "nav_read" }];

/** About 1 KB per call: a paragraph of prose (with braces and backticks that are not calls), then one call with nested arguments. */
function reply(protocol: ToolCallProtocol): { text: string; calls: string[] } {
  const parts: string[] = [];
  const calls: string[] = [];
  for (let index = 0; index < CALLS; index++) {
    const args = JSON.stringify({ query: `retry ${index} {x} "quoted"`, options: { glob: "src/{a,b}/**/*.ts", limit: index % 50, caseSensitive: index % 2 === 0 } });
    const call = JSON.stringify({ tool: "nav_search", arguments: JSON.parse(args) });
    calls.push(call);
    const prose = `Step ${index}: the retry loop in \`lib/util.js\` backs off {exponentially}; the caller passes an options object and reads the result. `.repeat(10);
    parts.push(`${prose.slice(0, 1_049 - call.length - 3)}\n${protocol === "json" ? call : `<nav_search>${args}</nav_search>`}\n\n`);
  }
  return { text: parts.join(""), calls };
}

function time(run: () => void): number {
  for (let warm = 0; warm < 3; warm++) run(); // warm-up (the JIT), not counted
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return median(times);
}

function streamed(text: string, protocol: ToolCallProtocol, size: number): number {
  const parser = createToolCallParser({ protocol, tools: TOOLS });
  let found = 0;
  const count = (events: ReturnType<typeof parser.push>) => {
    for (const event of events) if (event.type === "tool_call") found++;
  };
  for (let at = 0; at < text.length; at += size) count(parser.push(text.slice(at, at + size)));
  count(parser.end());
  return found;
}

const mb = (chars: number, ms: number) => `${(chars / 1_048_576 / (ms / 1_000)).toFixed(1)} MB/s`;

for (const protocol of ["json", "tagged"] as const) {
  const { text, calls } = reply(protocol);
  const callChars = calls.reduce((sum, call) => sum + call.length, 0);
  const reference = time(() => {
    for (const call of calls) JSON.parse(call);
  });
  console.log(`\n${protocol}: ${(text.length / 1_048_576).toFixed(2)} MB reply, ${CALLS} calls (${(callChars / 1_024).toFixed(0)} KB of call JSON)`);
  console.log(`  JSON.parse of the ${CALLS} calls alone: ${reference.toFixed(2)} ms (${mb(callChars, reference)} of call JSON)`);
  for (const [label, run] of [
    ["whole string (parseToolCalls)", () => parseToolCalls(text, { protocol, tools: TOOLS }).filter((event) => event.type === "tool_call").length],
    ["64-character chunks", () => streamed(text, protocol, 64)],
    ["1-character chunks", () => streamed(text, protocol, 1)],
  ] as const) {
    let found = 0;
    const ms = time(() => {
      found = run();
    });
    if (found !== CALLS) throw new Error(`${label}: found ${found} calls, expected ${CALLS}`);
    console.log(`  ${label}: ${ms.toFixed(1)} ms, ${mb(text.length, ms)} of reply, ${(ms / reference).toFixed(1)}× JSON.parse of the calls`);
  }
}
