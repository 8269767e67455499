/**
 * Int32 values per match in the flat `meta` array a search worker sends back:
 * file index, line, column, and the end of the match's line in the joined texts.
 */
export const MATCH_STRIDE = 4;
