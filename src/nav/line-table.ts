// The line starts of a text the search workers keep between searches, found only as far as
// scans have needed them. It imports nothing, so the search worker can load it from source
// (.ts) and from the build (.js).

/**
 * Where the lines of one text start, recorded as scans pass them: a scan records the line
 * feeds up to the end of each line it reports, so a later scan finds a line there by a search
 * in the table instead of counting line feeds again, and goes on counting (and recording) only
 * past the furthest point an earlier scan reached. A text scanned once never pays for more
 * than the lines up to its last match. The table is not counted in the workers' memory budget
 * for texts: about 4 bytes a line, an eighth of a text of 32-character lines.
 */
export class LineTable {
  readonly #text: string;
  // starts[line] for lines 0 .. count - 1: made at the first reach, sized for 32 characters a line up to it, grown as needed.
  #starts = new Int32Array(0);
  #count = 1;
  // Every line feed before this offset is recorded (past the text's end once all are).
  #reached = 0;

  /** @param text - the text whose lines the table records (one table per text, made with it) */
  constructor(text: string) {
    this.#text = text;
  }

  /** Lines whose start is known. */
  get known(): number {
    return this.#count;
  }

  /** True when the line holding `position` and its end are known (an earlier scan reached past it). */
  covers(position: number): boolean {
    return this.#reached > position;
  }

  /** Records the line starts up to and including the line feed that ends the line holding `position`. */
  reach(position: number): void {
    if (this.#reached > position) return;
    const text = this.#text;
    let starts = this.#starts;
    if (starts.length === 0) starts = new Int32Array(Math.max(64, (position >> 5) + 64));
    let count = this.#count;
    let from = this.#reached;
    while (from <= position) {
      const newline = text.indexOf("\n", from);
      if (newline === -1) {
        from = text.length + 1;
        // Every line is known: the table will not grow again.
        if (starts.length > count + 64) starts = starts.slice(0, count);
        break;
      }
      if (count === starts.length) {
        const grown = new Int32Array(starts.length * 2);
        grown.set(starts);
        starts = grown;
      }
      starts[count++] = newline + 1;
      from = newline + 1;
    }
    this.#starts = starts;
    this.#count = count;
    this.#reached = from;
  }

  /** The 0-based line holding `position` (reached), searching forward from line `from` (matches come in order, usually a few lines apart). */
  lineAt(position: number, from: number): number {
    const starts = this.#starts;
    const count = this.#count;
    if (count === 1) return 0;
    // Gallop forward from `from`, then search the last step's range.
    let step = 1;
    while (from + step < count && starts[from + step]! <= position) step *= 2;
    let low = from + (step >> 1);
    let high = Math.min(from + step, count) - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (starts[middle]! <= position) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** Where line `line` (reached) starts. */
  start(line: number): number {
    return line === 0 ? 0 : this.#starts[line]!;
  }

  /** Where line `line` (reached) ends: at its line feed, or at the end of the text. */
  end(line: number): number {
    return line + 1 < this.#count ? this.#starts[line + 1]! - 1 : this.#text.length;
  }
}
