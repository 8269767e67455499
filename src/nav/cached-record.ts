import type { FileRecord } from "./file-analysis.ts";
import type { FileFilter } from "./file-filters.ts";
import type { NavSymbol } from "./symbol.ts";
import { jsonBytes, parseJson, spansOf, spansPart, symbolsPart, type SymbolSpans } from "./symbol-piece.ts";
import type { PieceAt, SymbolPieces } from "./symbol-store.ts";

/** A file record without its symbols and trigram filter: what the cache's metadata file holds of it. */
export type StoredRecord = Omit<FileRecord, "symbols" | "grams">;

/** Where a record's symbol piece (see symbol-piece.ts), or one part of it, is: bytes in memory, or a piece of an open file. */
export type SymbolsSource = Uint8Array | { readonly pieces: SymbolPieces; readonly at: PieceAt };

/** Where a record's trigram filter is: bytes in memory, a piece of the cache's filter file, or none. */
export type GramsSource =
  | Uint8Array
  | { readonly file: { piece(offset: number, length: number): Uint8Array | undefined }; readonly offset: number; readonly length: number }
  | undefined;

/**
 * A record whose symbols are parsed from their piece (UTF-8 bytes, kept outside
 * the JavaScript heap or in a file) only when first read, and whose spans (all a
 * search needs) are parsed without them; from the disk cache, the two parts come
 * from two files. The bytes are also what the cache writes back, untouched. A class, not a closure and a property getter
 * per record: a warm start makes 50,000 of them.
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
  // The piece; or, with #spansSource, its symbols part alone.
  #source: SymbolsSource;
  #spansSource: SymbolsSource | undefined;
  #parsed: NavSymbol[] | undefined;
  #spans: SymbolSpans | undefined;
  #grams: GramsSource;

  constructor(stored: StoredRecord, source: SymbolsSource, grams: GramsSource, spansSource: SymbolsSource | undefined) {
    this.path = stored.path;
    this.size = stored.size;
    this.mtimeMs = stored.mtimeMs;
    this.ctimeMs = stored.ctimeMs;
    if (stored.language !== undefined) this.language = stored.language;
    this.binary = stored.binary;
    this.large = stored.large;
    this.lines = stored.lines;
    this.symbolCount = stored.symbolCount;
    this.#source = source;
    this.#spansSource = spansSource;
    this.#grams = grams;
  }

  get symbols(): readonly NavSymbol[] {
    return (this.#parsed ??= parseJson<NavSymbol[]>(this.symbolsJson()));
  }

  /** The symbols' spans, parsed without the symbols (once; kept for later searches). */
  spans(): SymbolSpans {
    return (this.#spans ??= this.#parsed ? spansOf(this.#parsed) : parseJson<SymbolSpans>(this.spansJson()));
  }

  get grams(): Uint8Array | undefined {
    return gramsOf(this.#grams);
  }

  /** The symbols' JSON as UTF-8 bytes (read from a file: valid until the next read of that file). */
  symbolsJson(): Uint8Array {
    const bytes = bytesOf(this.#source);
    return this.#spansSource ? bytes : symbolsPart(bytes);
  }

  /** The spans' JSON as UTF-8 bytes (read from a file: valid until the next read of that file). */
  spansJson(): Uint8Array {
    return this.#spansSource ? bytesOf(this.#spansSource) : spansPart(bytesOf(this.#source));
  }
}

function bytesOf(source: SymbolsSource): Uint8Array {
  return source instanceof Uint8Array ? source : source.pieces.read(source.at);
}

// A trigram filter from where it is kept.
function gramsOf(grams: GramsSource): Uint8Array | undefined {
  return grams === undefined || grams instanceof Uint8Array ? grams : grams.file.piece(grams.offset, grams.length);
}

/** A file filter of the disk cache, whose bytes are read from the filter file when first asked for. */
class CachedFilter implements FileFilter {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly binary: boolean;
  readonly #grams: GramsSource;

  constructor(stored: Omit<FileFilter, "grams">, grams: GramsSource) {
    this.path = stored.path;
    this.size = stored.size;
    this.mtimeMs = stored.mtimeMs;
    this.ctimeMs = stored.ctimeMs;
    this.binary = stored.binary;
    this.#grams = grams;
  }

  get grams(): Uint8Array | undefined {
    return gramsOf(this.#grams);
  }
}

/** A file filter whose trigram filter is read from `grams` when first needed. */
export function withLazyGrams(stored: Omit<FileFilter, "grams">, grams: GramsSource): FileFilter {
  return new CachedFilter(stored, grams);
}

/**
 * A record whose symbols are read from `source` (their piece, in memory or in a
 * file; or with `spans`, the piece's symbols part, the spans part being there) and
 * parsed when first needed, with its trigram filter from `grams`.
 */
export function withLazySymbols(stored: StoredRecord, source: SymbolsSource, grams: GramsSource = undefined, spans?: SymbolsSource): FileRecord {
  return new LazySymbolsRecord(stored, source, grams, spans);
}

/** The record's own fields but its symbols and filter (whose getters are not called). */
export function metadata(record: FileRecord): StoredRecord {
  const stored: Record<string, unknown> = {};
  for (const key of Object.keys(record)) if (key !== "symbols" && key !== "grams") stored[key] = record[key as keyof FileRecord];
  return stored as unknown as StoredRecord;
}

/** The record's symbols as the JSON text (UTF-8) the cache's symbols file stores. */
export function symbolsJsonOf(record: FileRecord): Uint8Array {
  return record instanceof LazySymbolsRecord ? record.symbolsJson() : jsonBytes(record.symbols);
}

/** The record's spans (see symbol-piece.ts) as the JSON text (UTF-8) the cache's spans file stores. */
export function spansJsonOf(record: FileRecord): Uint8Array {
  return record instanceof LazySymbolsRecord ? record.spansJson() : jsonBytes(symbolSpans(record));
}

const spansOfSymbols = new WeakMap<readonly NavSymbol[], SymbolSpans>();

/** The spans of the record's symbols (see symbol-piece.ts): from its piece, without parsing the symbols, when it has one. */
export function symbolSpans(record: FileRecord): SymbolSpans {
  if (record instanceof LazySymbolsRecord) return record.spans();
  let spans = spansOfSymbols.get(record.symbols);
  if (!spans) spansOfSymbols.set(record.symbols, (spans = spansOf(record.symbols)));
  return spans;
}
