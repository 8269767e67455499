import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// Appended bytes are written to the file in pieces of about this size.
const WRITE_CHUNK_BYTES = 1024 * 1024;

const closeOnCollect = new FinalizationRegistry<{ fd: number; file: string | undefined }>((held) => closeQuietly(held));

/** Where one spilled piece lies in its {@link SymbolSpill}. */
export interface SpilledBytes {
  readonly offset: number;
  readonly length: number;
}

/**
 * A temporary file the symbols of a large index build are written to as they
 * arrive from the index workers, so the main thread never holds them all (for
 * 50,000 files, about 100 MB of JSON): each piece is read back by position when
 * it is needed (the cache is written, or a file's symbols are asked for). The
 * file is removed as soon as it is opened (it lives while it is open), or, where
 * the system does not allow that, when the spill is closed or the process exits.
 */
export class SymbolSpill {
  #fd: number | undefined;
  #file: string | undefined;
  #written = 0;
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #scratch = Buffer.allocUnsafe(64 * 1024);
  readonly #held: { fd: number; file: string | undefined };

  private constructor(fd: number, file: string | undefined) {
    this.#fd = fd;
    this.#file = file;
    this.#held = { fd, file };
    closeOnCollect.register(this, this.#held, this);
  }

  /** Opens a spill file in `directory` (made if missing), or in the system's temporary directory when that fails. */
  static open(directory: string): SymbolSpill {
    let file: string;
    let fd: number;
    try {
      fs.mkdirSync(directory, { recursive: true });
      file = path.join(directory, `symbols.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.spill`);
      fd = fs.openSync(file, "wx+", 0o600);
    } catch {
      file = path.join(os.tmpdir(), `rlmkit-symbols.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.spill`);
      fd = fs.openSync(file, "wx+", 0o600);
    }
    try {
      fs.unlinkSync(file);
      return new SymbolSpill(fd, undefined);
    } catch {
      // Windows keeps an open file: remove it on close, or at the latest when the process exits.
      removeAtExit(file);
      return new SymbolSpill(fd, file);
    }
  }

  /** Appends one piece and tells where it lies. */
  append(bytes: Uint8Array): SpilledBytes {
    const at = { offset: this.#written + this.#pendingBytes, length: bytes.byteLength };
    this.#pending.push(bytes);
    this.#pendingBytes += bytes.byteLength;
    if (this.#pendingBytes >= WRITE_CHUNK_BYTES) this.#flush();
    return at;
  }

  /**
   * The bytes of one piece, read back from the file (or from what is not yet
   * written), in a buffer that the next read reuses: use them at once (parse
   * them, copy them). Writing the cache reads every piece; fresh buffers would
   * leave the process's memory grown by all of them.
   */
  read(at: SpilledBytes): Uint8Array {
    if (this.#fd === undefined) throw new Error("the index's symbols are no longer available: the navigation tools were closed");
    if (at.offset + at.length > this.#written) this.#flush();
    if (this.#scratch.length < at.length) this.#scratch = Buffer.allocUnsafe(Math.max(at.length, this.#scratch.length * 2));
    const bytes = this.#scratch.subarray(0, at.length);
    let done = 0;
    while (done < at.length) {
      const read = fs.readSync(this.#fd, bytes, done, at.length - done, at.offset + done);
      if (read === 0) throw new Error("the index's spilled symbols were cut short");
      done += read;
    }
    return bytes;
  }

  /** Closes and removes the file; pieces can no longer be read. */
  close(): void {
    if (this.#fd === undefined) return;
    closeOnCollect.unregister(this);
    closeQuietly(this.#held);
    this.#fd = undefined;
    this.#pending = [];
  }

  #flush(): void {
    if (this.#pendingBytes === 0 || this.#fd === undefined) return;
    const chunk = Buffer.concat(this.#pending, this.#pendingBytes);
    let done = 0;
    while (done < chunk.length) done += fs.writeSync(this.#fd, chunk, done, chunk.length - done, this.#written + done);
    this.#written += chunk.length;
    this.#pending = [];
    this.#pendingBytes = 0;
  }
}

const pendingRemovals = new Set<string>();
let exitHook = false;

function removeAtExit(file: string): void {
  if (!exitHook) {
    exitHook = true;
    process.once("exit", () => {
      for (const left of pendingRemovals) fs.rmSync(left, { force: true });
    });
  }
  pendingRemovals.add(file);
}

function closeQuietly(held: { fd: number; file: string | undefined }): void {
  try {
    fs.closeSync(held.fd);
  } catch {
    // already closed
  }
  if (held.file === undefined) return;
  try {
    fs.unlinkSync(held.file);
    pendingRemovals.delete(held.file);
  } catch {
    // removed at exit
  }
}
