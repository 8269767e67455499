// A file's symbols as the index keeps them outside the JavaScript heap and in its disk cache:
// one piece of UTF-8 text per file, the spans that a search needs first, then every symbol.
// It imports nothing of the project but leaf modules, so the index workers can load it.
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
// (the disk cache keeps one piece per line).
const SEPARATOR = 0x09;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A file's symbols as one piece: its spans' JSON, a tab, its symbols' JSON (in bytes of their own, which can be moved to another thread). */
export function encodeSymbolPiece(symbols: readonly NavSymbol[]): Uint8Array {
  return encoder.encode(`${JSON.stringify(spansOf(symbols))}\t${JSON.stringify(symbols)}`);
}

/** The symbols of a piece. */
export function decodeSymbols(piece: Uint8Array): NavSymbol[] {
  return JSON.parse(decoder.decode(piece.subarray(separatorOf(piece) + 1))) as NavSymbol[];
}

/** The spans of a piece, without parsing its symbols. */
export function decodeSpans(piece: Uint8Array): SymbolSpans {
  return JSON.parse(decoder.decode(piece.subarray(0, separatorOf(piece)))) as SymbolSpans;
}

/** The spans of symbols at hand. */
export function spansOf(symbols: readonly NavSymbol[]): SymbolSpans {
  const spans: (number | string)[] = [];
  for (const symbol of symbols) spans.push(symbol.startLine, symbol.endLine, symbol.name);
  return spans;
}

function separatorOf(piece: Uint8Array): number {
  const at = piece.indexOf(SEPARATOR);
  if (at === -1) throw new DamagedCacheError();
  return at;
}
