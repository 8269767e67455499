// A file's symbols as the index keeps them outside the JavaScript heap: one piece of UTF-8
// text per file, the spans that a search needs first, a tab, then every symbol. The disk cache
// keeps the two parts in two files (see index-cache.ts). It imports nothing of the project but
// leaf modules, so the index workers can load it.
import { DamagedCacheError } from "../core/errors/damaged-cache-error.ts";
import type { NavSymbol } from "./symbol.ts";

/**
 * Each symbol's first line, last line and qualified name, flat and in the
 * symbols' order: `[start, end, name, start, end, name, …]`. All a search needs
 * to name the symbol around each matching line, and about a seventh of the bytes
 * of the symbols themselves (their signatures and docs) to parse.
 */
export type SymbolSpans = readonly (number | string)[];

// Between a piece's spans and its symbols: JSON text never holds a raw tab, or a raw line feed
// (the disk cache keeps one part per line).
const SEPARATOR = 0x09;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A file's symbols as one piece: its spans' JSON, a tab, its symbols' JSON (in bytes of their own, which can be moved to another thread). */
export function encodeSymbolPiece(symbols: readonly NavSymbol[]): Uint8Array {
  return encoder.encode(`${JSON.stringify(spansOf(symbols))}\t${JSON.stringify(symbols)}`);
}

/** The spans' JSON of a piece (a view of its bytes). */
export function spansPart(piece: Uint8Array): Uint8Array {
  return piece.subarray(0, separatorOf(piece));
}

/** The symbols' JSON of a piece (a view of its bytes). */
export function symbolsPart(piece: Uint8Array): Uint8Array {
  return piece.subarray(separatorOf(piece) + 1);
}

/** The value of JSON text in UTF-8 bytes (one part of a piece). */
export function parseJson<T>(bytes: Uint8Array): T {
  return JSON.parse(decoder.decode(bytes)) as T;
}

/** The symbols of a piece. */
export function decodeSymbols(piece: Uint8Array): NavSymbol[] {
  return parseJson(symbolsPart(piece));
}

/** The spans of a piece, without parsing its symbols. */
export function decodeSpans(piece: Uint8Array): SymbolSpans {
  return parseJson(spansPart(piece));
}

/** The spans of symbols at hand. */
export function spansOf(symbols: readonly NavSymbol[]): SymbolSpans {
  const spans: (number | string)[] = [];
  for (const symbol of symbols) spans.push(symbol.startLine, symbol.endLine, symbol.name);
  return spans;
}

/** JSON text of a value, in UTF-8 bytes. */
export function jsonBytes(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

function separatorOf(piece: Uint8Array): number {
  const at = piece.indexOf(SEPARATOR);
  if (at === -1) throw new DamagedCacheError();
  return at;
}
