/**
 * Int32 values per match in the flat `meta` array a search worker sends back:
 * file index, line, column.
 */
export const MATCH_STRIDE = 3;
