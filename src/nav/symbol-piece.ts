// A file's symbols as the index keeps them outside the JavaScript heap: one piece of bytes per
// file, the spans that a search needs first (binary, see `encodeSpans`), then every symbol as
// UTF-8 JSON. The disk cache keeps the two parts in two files (see index-cache.ts). It imports
// nothing of the project but leaf modules, so the index workers can load it.
import { DamagedCacheError } from "../core/errors/damaged-cache-error.ts";
import type { NavSymbol } from "./symbol.ts";

/** What spans are made of: a symbol's first line, last line and qualified name. */
export type SpanSource = Pick<NavSymbol, "startLine" | "endLine" | "name">;

/**
 * Each symbol's first line, last line and qualified name, in the symbols' order: all a search
 * needs to name the symbol around each matching line. The numbers are one typed array and the
 * names one string, so a file's spans are two values for the collector, not three per symbol,
 * and reading them from the disk cache parses no JSON.
 */
export class SymbolSpans {
  /**
   * Per symbol, in the symbols' order: its first line, its last line (both 1-based), and where
   * its name ends in the names (UTF-16 units; it starts where the one before ends). Read it, never write it.
   */
  readonly numbers: Int32Array;
  /** The names, one after the other. */
  readonly names: string;
  #byStart: Int32Array | null | undefined;

  /** @param numbers - three per symbol, as {@link SymbolSpans.numbers} says; kept, not copied */
  constructor(numbers: Int32Array, names: string) {
    this.numbers = numbers;
    this.names = names;
  }

  /** The symbols' count. */
  get count(): number {
    return this.numbers.length / 3;
  }

  /** The first line (1-based) of symbol `index`. */
  start(index: number): number {
    return this.numbers[index * 3]!;
  }

  /** The last line (1-based) of symbol `index`. */
  end(index: number): number {
    return this.numbers[index * 3 + 1]!;
  }

  /**
   * The symbols' indexes by first line, the longest first among those that start on the same
   * line (ties keep their order); null when the symbols come in that order already, as they
   * usually do (document order, containers first). Worked out once and kept.
   */
  byStart(): Int32Array | null {
    if (this.#byStart !== undefined) return this.#byStart;
    const numbers = this.numbers;
    // Out of order: a later first line, or the same first line and a later last line.
    let sorted = true;
    for (let at = 3; at < numbers.length && sorted; at += 3) {
      if (numbers[at - 3]! > numbers[at]! || (numbers[at - 3] === numbers[at] && numbers[at - 2]! < numbers[at + 1]!)) sorted = false;
    }
    if (sorted) return (this.#byStart = null);
    const order = Array.from({ length: this.count }, (_, index) => index);
    return (this.#byStart = Int32Array.from(order.sort((a, b) => numbers[a * 3]! - numbers[b * 3]! || numbers[b * 3 + 1]! - numbers[a * 3 + 1]!)));
  }

  /** The qualified name of symbol `index`. */
  name(index: number): string {
    return this.names.slice(index === 0 ? 0 : this.numbers[index * 3 - 1]!, this.numbers[index * 3 + 2]!);
  }

  /** The spans as bytes (see {@link encodeSpans}). */
  bytes(): Uint8Array {
    return spanBytes(this.numbers, this.names);
  }
}

/** Spans of no symbol. */
export const NO_SPANS = new SymbolSpans(new Int32Array(0), "");

// The number part of encoded spans is little-endian; this platform's typed arrays may not be.
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const encoder = new TextEncoder();
// A leading U+FEFF is text here (a name may start with one), not a byte order mark to drop.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
// Encoded spans start with their symbol count, then three numbers per symbol.
const HEAD_BYTES = 4;
const SPAN_BYTES = 12;

/** The spans of these symbols (first line, last line, name). */
export function spansOf(symbols: readonly SpanSource[]): SymbolSpans {
  const numbers = new Int32Array(symbols.length * 3);
  let names = "";
  symbols.forEach((symbol, index) => {
    names += symbol.name;
    numbers[index * 3] = symbol.startLine;
    numbers[index * 3 + 1] = symbol.endLine;
    numbers[index * 3 + 2] = names.length;
  });
  return new SymbolSpans(numbers, names);
}

/**
 * The spans of these symbols as bytes: the count (a 32-bit little-endian number), then per
 * symbol its first line, last line and where its name ends in the names (UTF-16 units), then
 * the names, one after the other, in UTF-8.
 */
export function encodeSpans(symbols: readonly SpanSource[]): Uint8Array {
  return spansOf(symbols).bytes();
}

function spanBytes(numbers: Int32Array, names: string): Uint8Array {
  const count = numbers.length / 3;
  const text = encoder.encode(names);
  const bytes = new Uint8Array(HEAD_BYTES + count * SPAN_BYTES + text.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, count, true);
  for (let at = 0; at < numbers.length; at++) view.setInt32(HEAD_BYTES + at * 4, numbers[at]!, true);
  bytes.set(text, HEAD_BYTES + count * SPAN_BYTES);
  return bytes;
}

/** The spans in these bytes (see {@link encodeSpans}); a DamagedCacheError when they are not spans. */
export function decodeSpans(bytes: Uint8Array): SymbolSpans {
  if (bytes.length < HEAD_BYTES) throw new DamagedCacheError();
  const count = firstUint32(bytes);
  const numbersEnd = HEAD_BYTES + count * SPAN_BYTES;
  if (numbersEnd > bytes.length) throw new DamagedCacheError();
  if (count === 0) {
    if (numbersEnd !== bytes.length) throw new DamagedCacheError();
    return NO_SPANS;
  }
  // Copied into an array of their own: the bytes may be a reused buffer, at any alignment.
  const numbers = new Int32Array(count * 3);
  const raw = new Uint8Array(numbers.buffer);
  raw.set(bytes.subarray(HEAD_BYTES, numbersEnd));
  if (!LITTLE_ENDIAN) for (let at = 0; at < raw.length; at += 4) raw.subarray(at, at + 4).reverse();
  const names = decoder.decode(bytes.subarray(numbersEnd));
  // Names that do not end where the last one does are not these spans' (a cut in the wrong place, say). Each
  // name is not checked: a first search reads thousands of files' spans, in code not yet optimised.
  if (numbers[numbers.length - 1] !== names.length) throw new DamagedCacheError();
  return new SymbolSpans(numbers, names);
}

/** A file's symbols as one piece: the byte length of its spans (32-bit little-endian), its spans' bytes, its symbols' JSON (in bytes of their own, which can be moved to another thread). */
export function encodeSymbolPiece(symbols: readonly NavSymbol[]): Uint8Array {
  return symbolPiece(encodeSpans(symbols), encoder.encode(JSON.stringify(symbols)));
}

/** A piece of these spans' bytes (see {@link encodeSpans}) and this JSON text (UTF-8). */
export function symbolPiece(spans: Uint8Array, json: Uint8Array): Uint8Array {
  const piece = new Uint8Array(HEAD_BYTES + spans.length + json.length);
  new DataView(piece.buffer).setUint32(0, spans.length, true);
  piece.set(spans, HEAD_BYTES);
  piece.set(json, HEAD_BYTES + spans.length);
  return piece;
}

/** The spans' bytes of a piece (a view of its bytes). */
export function spansPart(piece: Uint8Array): Uint8Array {
  return piece.subarray(HEAD_BYTES, spansEnd(piece));
}

/** The symbols' JSON of a piece (a view of its bytes). */
export function symbolsPart(piece: Uint8Array): Uint8Array {
  return piece.subarray(spansEnd(piece));
}

/** The value of JSON text in UTF-8 bytes. */
export function parseJson<T>(bytes: Uint8Array): T {
  return JSON.parse(decoder.decode(bytes)) as T;
}

/** The symbols of a piece. */
export function decodeSymbols(piece: Uint8Array): NavSymbol[] {
  return parseJson(symbolsPart(piece));
}

/** JSON text of a value, in UTF-8 bytes. */
export function jsonBytes(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

// Where a piece's spans end and its symbols' JSON starts.
function spansEnd(piece: Uint8Array): number {
  if (piece.length < HEAD_BYTES) throw new DamagedCacheError();
  const end = HEAD_BYTES + firstUint32(piece);
  if (end > piece.length) throw new DamagedCacheError();
  return end;
}

// The 32-bit little-endian number the bytes start with (a spans' count, a piece's spans length), at any alignment.
function firstUint32(bytes: Uint8Array): number {
  return (bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16) | (bytes[3]! << 24)) >>> 0;
}
