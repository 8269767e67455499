// The index cache's metadata as columns: one JSON array per field, which parses about three
// times faster than one object per file and takes half the bytes (50,000 files: 7 MB and
// 10 ms, against 13 MB and 30 ms).

/** The metadata columns of a file record, in the order they are written. */
export const RECORD_COLUMNS = ["path", "size", "mtimeMs", "ctimeMs", "language", "binary", "large", "lines", "symbolCount", "symbolsLength", "spansLength", "gramsLength"] as const;
/** The metadata columns of a file filter (a file a search read that nobody analysed). */
export const FILTER_COLUMNS = ["path", "size", "mtimeMs", "ctimeMs", "binary", "gramsLength"] as const;

// Values written per chunk of a column.
const ROWS_PER_CHUNK = 2048;

/**
 * A JSON object of columns, streamed a chunk of rows at a time: `{"name":[v,…],…}`,
 * each value from `value(name, row)` (`undefined` written as `null`).
 */
export function* columnsJson<K extends string>(names: readonly K[], rows: number, value: (name: K, row: number) => unknown): Generator<string> {
  yield "{";
  for (const [index, name] of names.entries()) {
    yield `${index === 0 ? "" : ","}${JSON.stringify(name)}:[`;
    for (let from = 0; from < rows; from += ROWS_PER_CHUNK) {
      let chunk = from === 0 ? "" : ",";
      for (let row = from; row < Math.min(rows, from + ROWS_PER_CHUNK); row++) chunk += `${row === from ? "" : ","}${JSON.stringify(value(name, row) ?? null)}`;
      yield chunk;
    }
    yield "]";
  }
  yield "}";
}

/** The columns of a parsed object and their common length; throws unless each named one is an array of that length. */
export function readColumns<K extends string>(value: unknown, names: readonly K[]): { readonly columns: Readonly<Record<K, readonly unknown[]>>; readonly rows: number } {
  if (typeof value !== "object" || value === null) throw new Error("the cache's metadata has no columns");
  const columns = value as Record<K, unknown>;
  const rows = Array.isArray(columns[names[0]!]) ? (columns[names[0]!] as unknown[]).length : -1;
  for (const name of names) {
    const column = columns[name];
    if (!Array.isArray(column) || column.length !== rows) throw new Error(`the cache's metadata column ${name} is missing or of another length`);
  }
  return { columns: columns as Record<K, unknown[]>, rows };
}
