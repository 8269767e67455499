// A small filter of the byte trigrams of a file, kept in the index, so that a first search
// reads only the files that may hold its literal (as code-search engines keep trigram indexes).
// It may say yes for a file without the literal, never no for a file with it. ASCII letters
// are folded to lower case on both sides, so one filter serves searches with and without case.

/** Bits in a file's filter: about half a bit per byte of the file, a power of two from 1,024 to 65,536. */
function filterBits(bytes: number): number {
  let bits = 1024;
  while (bits < bytes / 2 && bits < 65_536) bits *= 2;
  return bits;
}

/** The filter of a file's bytes: one bit set per distinct trigram (ASCII letters folded). */
export function trigramFilter(bytes: Uint8Array): Uint8Array {
  const bits = filterBits(bytes.length);
  const filter = new Uint8Array(bits / 8);
  const shift = 32 - Math.log2(bits);
  const length = bytes.length;
  // The last three bytes, folded, as one number (a table and a rolling value: twice as fast as folding each byte three times).
  let trigram = (FOLDED[bytes[0] ?? 0]! << 8) | FOLDED[bytes[1] ?? 0]!;
  for (let index = 2; index < length; index++) {
    trigram = ((trigram << 8) | FOLDED[bytes[index]!]!) & 0xffffff;
    const bit = Math.imul(trigram, 0x9e3779b1) >>> shift;
    filter[bit >>> 3]! |= 1 << (bit & 7);
  }
  return filter;
}

/**
 * The trigrams a file must hold to contain `literal`, as hashes to test with
 * {@link mayHold}; `undefined` when the filter cannot tell (a literal under
 * three bytes, or one that ignores case and has letters beyond ASCII, whose
 * other cases have other bytes).
 */
export function literalTrigrams(literal: string, caseSensitive: boolean): Uint32Array | undefined {
  if (!caseSensitive && !/^[\x00-\x7F]*$/.test(literal)) return undefined;
  const bytes = Buffer.from(literal, "utf8");
  if (bytes.length < 3 || literal.includes("\uFFFD") || !literal.isWellFormed()) return undefined;
  const trigrams = new Uint32Array(bytes.length - 2);
  for (let index = 0; index + 2 < bytes.length; index++) {
    trigrams[index] = (fold(bytes[index]!) << 16) | (fold(bytes[index + 1]!) << 8) | fold(bytes[index + 2]!);
  }
  return trigrams;
}

/** False only when the file the filter was made from cannot hold every one of the trigrams. */
export function mayHold(filter: Uint8Array, trigrams: Uint32Array): boolean {
  return mayHoldAt(filter, 0, filter.length, trigrams);
}

/**
 * {@link mayHold} for the filter of `length` bytes at `offset` in `data` (the cache's filter
 * file, read whole): no view per filter, which cost more than the test (0.6 µs each).
 */
export function mayHoldAt(data: Uint8Array, offset: number, length: number, trigrams: Uint32Array): boolean {
  const shift = 32 - Math.log2(length * 8);
  for (const trigram of trigrams) {
    const bit = Math.imul(trigram, 0x9e3779b1) >>> shift;
    if ((data[offset + (bit >>> 3)]! & (1 << (bit & 7))) === 0) return false;
  }
  return true;
}

// ASCII upper-case letters to lower case; every other byte as it is.
function fold(byte: number): number {
  return byte >= 65 && byte <= 90 ? byte | 32 : byte;
}

// fold() of every byte value.
const FOLDED = Uint8Array.from({ length: 256 }, (_, byte) => fold(byte));
