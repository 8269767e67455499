import type { SymbolSpans } from "./symbol-piece.ts";

/**
 * Names the innermost symbol around each line of one file, for lines asked in
 * ascending order (a search's matches, a file's references): one sweep over the
 * symbols' spans with a stack of the symbols open at the line, no table per line.
 * Where spans overlap without nesting, the symbol that starts last wins (of two
 * that start on the same line, the shorter). A line asked out of order starts the sweep again.
 */
export class EnclosingSymbols {
  readonly #spans: SymbolSpans;
  // Offsets of the spans by first line, the longest first among those that start on the same line.
  readonly #order: readonly number[];
  #next = 0;
  readonly #open: number[] = [];
  #line = 0;

  constructor(spans: SymbolSpans) {
    this.#spans = spans;
    this.#order = orderOf(spans);
  }

  /** The qualified name of the innermost symbol covering `line` (1-based), or null. */
  nameAt(line: number): string | null {
    const spans = this.#spans;
    const open = this.#open;
    if (line < this.#line) {
      this.#next = 0;
      open.length = 0;
    }
    this.#line = line;
    while (this.#next < this.#order.length && (spans[this.#order[this.#next]!] as number) <= line) open.push(this.#order[this.#next++]!);
    while (open.length > 0 && (spans[open[open.length - 1]! + 1] as number) < line) open.pop();
    return open.length === 0 ? null : (spans[open[open.length - 1]! + 2] as string);
  }
}

// The spans' order, made once per spans (a file's are kept by its record, and repeated searches ask again).
const orders = new WeakMap<SymbolSpans, readonly number[]>();

function orderOf(spans: SymbolSpans): readonly number[] {
  let order = orders.get(spans);
  if (order) return order;
  const offsets: number[] = [];
  let sorted = true;
  for (let at = 0; at < spans.length; at += 3) {
    if (at > 0 && compare(spans, at - 3, at) > 0) sorted = false;
    offsets.push(at);
  }
  // Symbols come in document order, containers first: usually sorted already.
  if (!sorted) offsets.sort((a, b) => compare(spans, a, b));
  orders.set(spans, (order = offsets));
  return order;
}

// By first line, then the longest first; equal spans keep their order (a stable sort).
function compare(spans: SymbolSpans, a: number, b: number): number {
  return (spans[a] as number) - (spans[b] as number) || (spans[b + 1] as number) - (spans[a + 1] as number);
}
