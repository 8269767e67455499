import fs from "node:fs";
import { openCacheFile, readFully } from "./symbol-store.ts";

/**
 * The cache's filter file, opened with the metadata (so it is the same write's) and read
 * whole the first time a filter is asked for on this thread (a first search in a large
 * repository asks for every file's; in a small one the native scan reads the file itself,
 * through {@link open}, and it stays open and unread here until the cache is closed). A file
 * that cannot be read leaves every record without a filter: the search then reads every file.
 */
export class GramsFile {
  #fd: number | undefined;
  // A plain Uint8Array view: its pieces cost a third of a Buffer's (50,000 of them for a first search).
  #data: Uint8Array | null | undefined;
  readonly #bytes: number;

  private constructor(fd: number, bytes: number) {
    this.#fd = fd;
    this.#bytes = bytes;
  }

  /** Opens the file if it holds exactly `bytes` bytes and starts with `writeId`: `undefined` otherwise. */
  static open(file: string, bytes: number, writeId: string): GramsFile | undefined {
    const fd = openCacheFile(file, bytes, writeId);
    return fd === undefined ? undefined : new GramsFile(fd, bytes);
  }

  /** The bytes at `offset` (the whole file is read on the first call, then closed); `undefined` when it cannot be read. */
  piece(offset: number, length: number): Uint8Array | undefined {
    return this.all()?.subarray(offset, offset + length);
  }

  /** The open file and its size while its bytes have not been read (see {@link all}), for a native reader of its own. */
  open(): { readonly fd: number; readonly bytes: number } | undefined {
    return this.#data === undefined && this.#fd !== undefined ? { fd: this.#fd, bytes: this.#bytes } : undefined;
  }

  /** The whole file's bytes (read on the first call, then closed); `undefined` when it cannot be read. */
  all(): Uint8Array | undefined {
    if (this.#data === undefined) {
      this.#data = null;
      try {
        const data = Buffer.allocUnsafe(this.#bytes);
        readFully(this.#fd!, data, 0, this.#bytes, 0);
        this.#data = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      } catch {
        // no filters
      }
      this.close();
    }
    return this.#data ?? undefined;
  }

  /** Closes the file (pieces already read stay readable). */
  close(): void {
    if (this.#fd !== undefined) fs.closeSync(this.#fd);
    this.#fd = undefined;
  }
}
