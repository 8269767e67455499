import type { FileRecord } from "./file-analysis.ts";
import type { FileFilter } from "./file-filters.ts";
import type { NavSymbol } from "./symbol.ts";
import { decodeSpans, encodeSpans, jsonBytes, parseJson, spansOf, spansPart, symbolsPart, type SymbolSpans } from "./symbol-piece.ts";
import type { PieceAt, SymbolPieces } from "./symbol-store.ts";
import { mayHold, mayHoldAt } from "./trigram-filter.ts";

/** A file record without its symbols and trigram filter: what the cache's metadata file holds of it. */
export type StoredRecord = Omit<FileRecord, "symbols" | "grams">;

/** Where a record's symbol piece (see symbol-piece.ts) is: bytes in memory, or a piece of an open file (a spill). */
export type SymbolsSource = Uint8Array | { readonly pieces: SymbolPieces; readonly at: PieceAt };

/** A file that trigram filters are read from by position (the cache's filter file). */
export interface GramsPieces {
  piece(offset: number, length: number): Uint8Array | undefined;
  /** The whole file's bytes (the pieces are views of them); `undefined` when it cannot be read. */
  all(): Uint8Array | undefined;
  /** The open file and its size, while its bytes have not been read: a native reader may read them itself. */
  open?(): { readonly fd: number; readonly bytes: number } | undefined;
}

/**
 * Where the bytes of one cached record are, by position: its symbols in a symbols file, its
 * spans in a spans file, its filter in a filter file (none: `gramsFile` undefined). Read by
 * {@link cachedRecord}, which copies the numbers: one object can serve every record of a cache.
 */
export interface RecordPlaces {
  symbolsFile: SymbolPieces;
  symbolsAt: number;
  symbolsLength: number;
  spansFile: SymbolPieces;
  spansAt: number;
  spansLength: number;
  gramsFile: GramsPieces | undefined;
  gramsAt: number;
  gramsLength: number;
}

/** A record's fields as columns (see cache-columns.ts), one value per record. */
export type RecordColumns = Readonly<Record<keyof StoredRecord, readonly unknown[]>>;

/**
 * A record whose symbols are parsed from their piece (UTF-8 bytes, kept outside
 * the JavaScript heap or in a file) only when first read, and whose spans (all a
 * search needs) are parsed without them; from the disk cache, the two parts come
 * from two files. The bytes are also what the cache writes back, untouched. A
 * class with numbers for places, not a closure and a getter per record, nor objects
 * for places: a warm start makes 50,000 of them (objects for places took 40 ms more).
 */
class LazySymbolsRecord implements FileRecord {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly language?: string;
  readonly binary: boolean;
  readonly large: boolean;
  readonly lines: number | null;
  readonly symbolCount: number;
  // The piece in memory; or the file holding the piece (a spill) or, with #spansFile, the symbols part alone.
  readonly #symbols: Uint8Array | SymbolPieces;
  readonly #symbolsAt: number;
  readonly #symbolsLength: number;
  readonly #spansFile: SymbolPieces | undefined;
  readonly #spansAt: number;
  readonly #spansLength: number;
  readonly #grams: Uint8Array | GramsPieces | undefined;
  readonly #gramsAt: number;
  readonly #gramsLength: number;
  #parsed: NavSymbol[] | undefined;
  #spans: SymbolSpans | undefined;

  // Fields one by one (from an object or from columns), so neither path allocates more than the record.
  constructor(
    path: string,
    size: number,
    mtimeMs: number,
    ctimeMs: number,
    language: string | undefined | null,
    binary: boolean,
    large: boolean,
    lines: number | null,
    symbolCount: number,
    symbols: Uint8Array | SymbolPieces,
    symbolsAt: number,
    symbolsLength: number,
    places: Omit<RecordPlaces, "symbolsFile" | "symbolsAt" | "symbolsLength"> | undefined,
    grams: Uint8Array | undefined,
  ) {
    this.path = path;
    this.size = size;
    this.mtimeMs = mtimeMs;
    this.ctimeMs = ctimeMs;
    if (language !== undefined && language !== null) this.language = language;
    this.binary = binary;
    this.large = large;
    this.lines = lines;
    this.symbolCount = symbolCount;
    this.#symbols = symbols;
    this.#symbolsAt = symbolsAt;
    this.#symbolsLength = symbolsLength;
    this.#spansFile = places?.spansFile;
    this.#spansAt = places?.spansAt ?? 0;
    this.#spansLength = places?.spansLength ?? 0;
    this.#grams = grams ?? places?.gramsFile;
    this.#gramsAt = places?.gramsAt ?? 0;
    this.#gramsLength = places?.gramsLength ?? 0;
  }

  get symbols(): readonly NavSymbol[] {
    return (this.#parsed ??= parseJson<NavSymbol[]>(this.symbolsJson()));
  }

  /** The symbols' spans, read without the symbols (once; kept for later searches). */
  spans(): SymbolSpans {
    return (this.#spans ??= this.#parsed ? spansOf(this.#parsed) : decodeSpans(this.spansBytes()));
  }

  get grams(): Uint8Array | undefined {
    const grams = this.#grams;
    return grams === undefined || grams instanceof Uint8Array ? grams : grams.piece(this.#gramsAt, this.#gramsLength);
  }

  /** See {@link gramsPlaceInto}. */
  gramsPlaceInto(at: Float64Array, length: Int32Array, index: number): GramsPieces | undefined {
    const grams = this.#grams;
    if (this.binary || grams === undefined || grams instanceof Uint8Array) return undefined;
    at[index] = this.#gramsAt;
    length[index] = this.#gramsLength;
    return grams;
  }

  /** See {@link filterMayHold}. */
  mayHold(trigrams: Uint32Array): boolean {
    const grams = this.#grams;
    if (grams === undefined) return true;
    if (grams instanceof Uint8Array) return mayHold(grams, trigrams);
    const data = grams.all();
    return data === undefined || mayHoldAt(data, this.#gramsAt, this.#gramsLength, trigrams);
  }

  /** The symbols' JSON as UTF-8 bytes (read from a file: valid until the next read of that file). */
  symbolsJson(): Uint8Array {
    const bytes = this.#symbolBytes();
    return this.#spansFile ? bytes : symbolsPart(bytes);
  }

  /** Where the disk cache keeps this record's spans (a line of its spans file), when it does: for a native reader (see {@link spansPlaceInto}). */
  spansPlaceInto(at: Float64Array, length: Int32Array, index: number): SymbolPieces | undefined {
    if (!this.#spansFile) return undefined;
    at[index] = this.#spansAt;
    length[index] = this.#spansLength;
    return this.#spansFile;
  }

  /** The spans' bytes (see symbol-piece.ts; read from a file: valid until the next read of that file). */
  spansBytes(): Uint8Array {
    return this.#spansFile ? this.#spansFile.read({ offset: this.#spansAt, length: this.#spansLength }) : spansPart(this.#symbolBytes());
  }

  #symbolBytes(): Uint8Array {
    const symbols = this.#symbols;
    return symbols instanceof Uint8Array ? symbols : symbols.read({ offset: this.#symbolsAt, length: this.#symbolsLength });
  }
}

/** A file filter of the disk cache, whose bytes are read from the filter file when first asked for. */
class CachedFilter implements FileFilter {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly binary: boolean;
  readonly #file: GramsPieces | undefined;
  readonly #at: number;
  readonly #length: number;

  constructor(path: string, size: number, mtimeMs: number, ctimeMs: number, binary: boolean, file: GramsPieces | undefined, at: number, length: number) {
    this.path = path;
    this.size = size;
    this.mtimeMs = mtimeMs;
    this.ctimeMs = ctimeMs;
    this.binary = binary;
    this.#file = file;
    this.#at = at;
    this.#length = length;
  }

  get grams(): Uint8Array | undefined {
    return this.#file?.piece(this.#at, this.#length);
  }

  /** See {@link gramsPlaceInto}. */
  gramsPlaceInto(at: Float64Array, length: Int32Array, index: number): GramsPieces | undefined {
    if (this.binary || this.#file === undefined) return undefined;
    at[index] = this.#at;
    length[index] = this.#length;
    return this.#file;
  }

  /** See {@link filterMayHold}. */
  mayHold(trigrams: Uint32Array): boolean {
    const data = this.#file?.all();
    return data === undefined || mayHoldAt(data, this.#at, this.#length, trigrams);
  }
}

/**
 * Where the disk cache keeps the spans of a record of its own (an entry of its file list): their offset in its spans
 * file at `index` of `at`, their length at `index` of `length`, and that file as the answer; for anything else
 * `undefined`, and nothing written. No object per record: a first search asks for every file of the list.
 */
export function spansPlaceInto(file: object, at: Float64Array, length: Int32Array, index: number): SymbolPieces | undefined {
  return file instanceof LazySymbolsRecord ? file.spansPlaceInto(at, length, index) : undefined;
}

/**
 * Where the disk cache keeps the trigram filter of a record or filter of its own, for a native reader that tests it
 * in the filter file's bytes: its offset at `index` of `at`, its length at `index` of `length`, and that file as the
 * answer. `undefined`, and nothing written, for anything else, and for an entry whose filter alone does not decide
 * (binary: never read; no filter kept in the file); {@link filterMayHold} then decides.
 */
export function gramsPlaceInto(file: object, at: Float64Array, length: Int32Array, index: number): GramsPieces | undefined {
  return file instanceof LazySymbolsRecord || file instanceof CachedFilter ? file.gramsPlaceInto(at, length, index) : undefined;
}

/** True for a record or filter of the cache's classes: the disk cache's own (what its file list is made of), or a record analysed on the workers. */
export function isCacheEntry(file: object): file is FileRecord | FileFilter {
  return file instanceof LazySymbolsRecord || file instanceof CachedFilter;
}

/**
 * False only when the trigram filter of a record or filter (none: true) says its file cannot
 * hold every one of the trigrams. A record or filter of the disk cache is tested in place in
 * the filter file's bytes, with no view made of its filter.
 */
export function filterMayHold(known: { readonly grams?: Uint8Array | undefined }, trigrams: Uint32Array): boolean {
  if (known instanceof LazySymbolsRecord || known instanceof CachedFilter) return known.mayHold(trigrams);
  const grams = known.grams;
  return grams === undefined || mayHold(grams, trigrams);
}

/** A filter of the disk cache from its columns (see cache-columns.ts), its bytes at `at` in `file` (none: binary). */
export function cachedFilter(columns: Readonly<Record<"path" | "size" | "mtimeMs" | "ctimeMs" | "binary", readonly unknown[]>>, row: number, file: GramsPieces | undefined, at: number, length: number): FileFilter {
  const c = columns;
  return new CachedFilter(c.path[row] as string, c.size[row] as number, c.mtimeMs[row] as number, c.ctimeMs[row] as number, c.binary[row] as boolean, file, at, length);
}

/** A record of the disk cache from its columns (see cache-columns.ts), its symbols, spans and filter where `places` says. */
export function cachedRecord(columns: RecordColumns, row: number, places: RecordPlaces): FileRecord {
  const c = columns;
  return new LazySymbolsRecord(
    c.path[row] as string,
    c.size[row] as number,
    c.mtimeMs[row] as number,
    c.ctimeMs[row] as number,
    c.language[row] as string | null,
    c.binary[row] as boolean,
    c.large[row] as boolean,
    c.lines[row] as number | null,
    c.symbolCount[row] as number,
    places.symbolsFile,
    places.symbolsAt,
    places.symbolsLength,
    places,
    undefined,
  );
}

/**
 * A record whose symbols are read from `source` (their piece, in memory or in a
 * spill file) and parsed when first needed, with its trigram filter `grams`.
 */
export function withLazySymbols(stored: StoredRecord, source: SymbolsSource, grams?: Uint8Array): FileRecord {
  const s = stored;
  const [symbols, at] = source instanceof Uint8Array ? [source, { offset: 0, length: source.byteLength }] : [source.pieces, source.at];
  return new LazySymbolsRecord(s.path, s.size, s.mtimeMs, s.ctimeMs, s.language, s.binary, s.large, s.lines, s.symbolCount, symbols, at.offset, at.length, undefined, grams);
}

/** The record's symbols as the JSON text (UTF-8) the cache's symbols file stores. */
export function symbolsJsonOf(record: FileRecord): Uint8Array {
  return record instanceof LazySymbolsRecord ? record.symbolsJson() : jsonBytes(record.symbols);
}

/** The record's spans as the bytes the cache's spans file stores (see symbol-piece.ts). */
export function spansBytesOf(record: FileRecord): Uint8Array {
  return record instanceof LazySymbolsRecord ? record.spansBytes() : encodeSpans(record.symbols);
}

const spansOfSymbols = new WeakMap<readonly NavSymbol[], SymbolSpans>();

/** The spans of the record's symbols (see symbol-piece.ts): from its piece, without parsing the symbols, when it has one. */
export function symbolSpans(record: FileRecord): SymbolSpans {
  if (record instanceof LazySymbolsRecord) return record.spans();
  let spans = spansOfSymbols.get(record.symbols);
  if (!spans) spansOfSymbols.set(record.symbols, (spans = spansOf(record.symbols)));
  return spans;
}
