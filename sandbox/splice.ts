/**
 * A minimal source editor: records insertions and replacements at offsets of the
 * original text and applies them in one pass. Edits never add or remove line
 * breaks unless the inserted text has them, so line numbers are preserved.
 */
export class SourceSplice {
  readonly #source: string;
  readonly #edits: { start: number; end: number; text: string; order: number }[] = [];

  constructor(source: string) {
    this.#source = source;
  }

  /** Inserts `text` before the character at `offset`. */
  insert(offset: number, text: string): void {
    this.#edits.push({ start: offset, end: offset, text, order: this.#edits.length });
  }

  /** Replaces the characters in [start, end) with `text`. */
  replace(start: number, end: number, text: string): void {
    this.#edits.push({ start, end, text, order: this.#edits.length });
  }

  /** The edited source. Overlapping replacements are a programming error. */
  toString(): string {
    const edits = this.#sorted();
    let out = "";
    let cursor = 0;
    for (const edit of edits) {
      if (edit.start < cursor) throw new Error(`SourceSplice: overlapping edit at ${edit.start}`);
      out += this.#source.slice(cursor, edit.start) + edit.text;
      cursor = edit.end;
    }
    return out + this.#source.slice(cursor);
  }

  /**
   * Maps an offset in the edited source back to the original. Offsets inside
   * inserted or replacing text map to the start of the edit.
   */
  originalOffset(offset: number): number {
    let delta = 0;
    for (const edit of this.#sorted()) {
      const editedStart = edit.start + delta;
      if (offset < editedStart) break;
      if (offset < editedStart + edit.text.length) return edit.start;
      delta += edit.text.length - (edit.end - edit.start);
    }
    return offset - delta;
  }

  #sorted(): { start: number; end: number; text: string; order: number }[] {
    return [...this.#edits].sort((a, b) => a.start - b.start || a.end - b.end || a.order - b.order);
  }
}
