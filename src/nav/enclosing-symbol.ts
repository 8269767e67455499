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
  // (first line, last line, name end) per symbol: read in place, a search asks for tens of thousands of lines.
  readonly #numbers: Int32Array;
  // The symbols by first line, the longest first among those that start on the same line; null: in their own order.
  readonly #order: Int32Array | null;
  readonly #count: number;
  #next = 0;
  readonly #open: number[] = [];
  #line = 0;
  // The last name given, and whose: consecutive lines in one symbol share the string.
  #named = -1;
  #name: string | null = null;
  // The last line the last answer holds for: the innermost symbol ends after it, or another starts.
  #holdsTo = -1;

  constructor(spans: SymbolSpans) {
    this.#spans = spans;
    this.#numbers = spans.numbers;
    this.#order = spans.byStart();
    this.#count = spans.count;
  }

  /** The qualified name of the innermost symbol covering `line` (1-based), or null. */
  nameAt(line: number): string | null {
    // Most lines asked are in the symbol of the line before (a search's matches in one function).
    if (line >= this.#line && line <= this.#holdsTo) {
      this.#line = line;
      return this.#name;
    }
    const numbers = this.#numbers;
    const open = this.#open;
    const order = this.#order;
    const count = this.#count;
    if (line < this.#line) {
      this.#next = 0;
      open.length = 0;
    }
    this.#line = line;
    while (this.#next < count) {
      const symbol = order === null ? this.#next : order[this.#next]!;
      if (numbers[symbol * 3]! > line) break;
      open.push(symbol);
      this.#next++;
    }
    while (open.length > 0 && numbers[open[open.length - 1]! * 3 + 1]! < line) open.pop();
    // The answer holds until the next symbol starts, or the innermost one ends.
    const nextStart = this.#next < count ? numbers[(order === null ? this.#next : order[this.#next]!) * 3]! - 1 : Number.MAX_SAFE_INTEGER;
    if (open.length === 0) {
      this.#named = -1;
      this.#name = null;
      this.#holdsTo = nextStart;
      return null;
    }
    const innermost = open[open.length - 1]!;
    this.#holdsTo = Math.min(nextStart, numbers[innermost * 3 + 1]!);
    if (innermost !== this.#named) {
      this.#named = innermost;
      this.#name = this.#spans.name(innermost);
    }
    return this.#name;
  }
}
