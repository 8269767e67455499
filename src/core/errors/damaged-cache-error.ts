/**
 * The index's disk cache does not hold what its metadata says: a file's symbols
 * do not end where the metadata puts them (two processes wrote the cache at the
 * same moment, or it was edited). Thrown by the nav tools when they read those
 * symbols; removing the cache directory makes the next run rebuild it.
 */
export class DamagedCacheError extends Error {
  override readonly name = "DamagedCacheError";

  constructor() {
    super("the index's disk cache is damaged (its symbols file does not match its metadata); delete the nav cache directory (the cacheDir option, by default rlmkit's folder in the user's cache directory) and it is rebuilt");
  }
}
