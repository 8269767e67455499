import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DamagedCacheError } from "../core/errors/damaged-cache-error.ts";

// Appended bytes are written to a spill file in pieces of about this size.
const WRITE_CHUNK_BYTES = 1024 * 1024;

const closeOnCollect = new FinalizationRegistry<{ fd: number; file: string | undefined }>((held) => closeQuietly(held));

/** Where one piece (a file's symbols, as JSON) lies in a {@link SymbolPieces} file. */
export interface PieceAt {
  readonly offset: number;
  readonly length: number;
}

/**
 * An open file of symbol pieces, read back by position when a piece is needed,
 * so that no process holds every file's symbols (for 50,000 files, about 100 MB
 * of JSON). The file stays open until `close()` (or until the object is
 * collected): a cache file replaced on disk meanwhile is still read as it was.
 */
export class SymbolPieces {
  #fd: number | undefined;
  #scratch = Buffer.allocUnsafe(64 * 1024);
  readonly #held: { fd: number; file: string | undefined };

  protected constructor(fd: number, removeOnClose: string | undefined) {
    this.#fd = fd;
    this.#held = { fd, file: removeOnClose };
    closeOnCollect.register(this, this.#held, this);
  }

  /**
   * The bytes of one piece, in a buffer that the next read reuses: use them at
   * once (parse them, copy them). Writing the cache reads every piece; fresh
   * buffers would leave the process's memory grown by all of them.
   */
  read(at: PieceAt): Uint8Array {
    if (this.#fd === undefined) throw new Error("the index's symbols are no longer available: the navigation tools were closed");
    if (this.#scratch.length < at.length) this.#scratch = Buffer.allocUnsafe(Math.max(at.length, this.#scratch.length * 2));
    const bytes = this.#scratch.subarray(0, at.length);
    this.readInto(bytes, 0, at.length, at.offset);
    return bytes;
  }

  /** Reads `length` bytes at `position` of the file into `target` at `offset`. */
  protected readInto(target: Uint8Array, offset: number, length: number, position: number): void {
    if (this.#fd === undefined) throw new Error("the index's symbols are no longer available: the navigation tools were closed");
    readFully(this.#fd, target, offset, length, position);
  }

  /** Closes the file (and removes it, for a spill); pieces can no longer be read. */
  close(): void {
    if (this.#fd === undefined) return;
    closeOnCollect.unregister(this);
    closeQuietly(this.#held);
    this.#fd = undefined;
  }

  /** The open file's descriptor, while it is open (a native reader reads it by position). */
  get fd(): number | undefined {
    return this.#fd;
  }
}

const LINE_FEED = 0x0a;

// Pieces read one by one before a cache's symbols file is read whole: past this many, one
// read of the file costs less than a system call per piece (2,000 pieces: 25 ms against 5 ms).
// A smaller file is read whole sooner: a read of a piece costs about as much as reading 64 KiB
// more at once (stdlib's 1.6 MB spans file: whole after 25 pieces, where 256 reads took 2.6 ms).
const READS_BEFORE_WHOLE = 256;
const BYTES_PER_READ = 64 * 1024;

/**
 * The symbols file of the disk cache, opened for reading pieces: one by one for
 * the first few, then the whole file at once (a search with matches in
 * thousands of files needs the symbols of each).
 */
export class SymbolFile extends SymbolPieces {
  readonly #bytes: number;
  #reads = 0;
  // A plain view, not a Buffer: a Buffer's subarray makes a Buffer, several times the cost, per piece.
  #whole: Uint8Array | undefined;

  private constructor(fd: number, bytes: number) {
    super(fd, undefined);
    this.#bytes = bytes;
  }

  /** A piece, checked to be a whole line (else the metadata is not this file's). */
  override read(at: PieceAt): Uint8Array {
    if (!this.#whole && ++this.#reads > Math.min(READS_BEFORE_WHOLE, Math.ceil(this.#bytes / BYTES_PER_READ)) && this.fd !== undefined) {
      const unfilled = Buffer.allocUnsafe(this.#bytes);
      const whole = new Uint8Array(unfilled.buffer, unfilled.byteOffset, unfilled.byteLength);
      this.readInto(whole, 0, this.#bytes, 0);
      this.#whole = whole;
    }
    // The piece with the bytes either side: the line feed before it (none for the first) and after it.
    const before = at.offset > 0 ? 1 : 0;
    const span = { offset: at.offset - before, length: at.length + before + 1 };
    const line = this.#whole && this.fd !== undefined ? this.#whole.subarray(span.offset, span.offset + span.length) : super.read(span);
    if (line.length !== span.length || (before === 1 && line[0] !== LINE_FEED) || line[span.length - 1] !== LINE_FEED) throw new DamagedCacheError();
    return line.subarray(before, before + at.length);
  }

  override close(): void {
    super.close();
    this.#whole = undefined;
  }

  /**
   * Opens the file if it holds exactly `bytes` bytes and starts with the line `firstLine`
   * (the id of the cache write its metadata belongs to): `undefined` otherwise.
   */
  static open(file: string, bytes: number, firstLine: string): SymbolFile | undefined {
    const fd = openCacheFile(file, bytes, `${firstLine}\n`);
    return fd === undefined ? undefined : new SymbolFile(fd, bytes);
  }
}

/**
 * Opens a file of the index's disk cache for reading if it holds exactly `bytes`
 * bytes and starts with `head` (the id of the write its metadata belongs to):
 * its descriptor, or `undefined`, the file closed again.
 */
export function openCacheFile(file: string, bytes: number, head: string): number | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    const expected = Buffer.from(head);
    const start = Buffer.alloc(expected.length);
    if (fs.fstatSync(fd).size === bytes && fs.readSync(fd, start, 0, start.length, 0) === start.length && start.equals(expected)) return fd;
  } catch {
    // treated as a mismatch
  }
  fs.closeSync(fd);
  return undefined;
}

/** Reads `length` bytes at `position` of an open file into `target` at `offset`; a shorter file is a {@link DamagedCacheError}. */
export function readFully(fd: number, target: Uint8Array, offset: number, length: number, position: number): void {
  for (let done = 0; done < length; ) {
    const read = fs.readSync(fd, target, offset + done, length - done, position + done);
    if (read === 0) throw new DamagedCacheError();
    done += read;
  }
}

/**
 * A temporary file the symbols of a large index build are written to as they
 * arrive from the index workers, instead of staying in memory. The file is
 * removed as soon as it is opened (it lives while it is open), or, where the
 * system does not allow that, when the spill is closed or the process exits.
 */
export class SymbolSpill extends SymbolPieces {
  #written = 0;
  // Pieces not yet written, by offset; after a write fails (a full disk), pieces stay here.
  #pending = new Map<number, Uint8Array>();
  #pendingBytes = 0;
  #failed = false;

  /** Opens a spill file in `directory` (made if missing), or in the system's temporary directory when that fails. */
  static open(directory: string): SymbolSpill {
    const name = () => `${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.spill`;
    let file: string;
    let fd: number;
    try {
      fs.mkdirSync(directory, { recursive: true });
      file = path.join(directory, `symbols.${name()}`);
      fd = fs.openSync(file, "wx+", 0o600);
    } catch {
      file = path.join(os.tmpdir(), `rlmkit-symbols.${name()}`);
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

  /** Appends one piece and tells where it lies. Never throws: a piece that cannot be written stays in memory. */
  append(bytes: Uint8Array): PieceAt {
    const at = { offset: this.#written + this.#pendingBytes, length: bytes.byteLength };
    this.#pending.set(at.offset, bytes);
    this.#pendingBytes += bytes.byteLength;
    if (this.#pendingBytes >= WRITE_CHUNK_BYTES) this.#flush();
    return at;
  }

  override read(at: PieceAt): Uint8Array {
    const held = at.offset >= this.#written ? this.#pending.get(at.offset) : undefined;
    if (held && this.fd !== undefined) return held;
    return super.read(at);
  }

  override close(): void {
    super.close();
    this.#pending.clear();
  }

  #flush(): void {
    const fd = this.fd;
    if (this.#failed || this.#pendingBytes === 0 || fd === undefined) return;
    const chunk = Buffer.concat([...this.#pending.values()], this.#pendingBytes);
    try {
      for (let done = 0; done < chunk.length; ) done += fs.writeSync(fd, chunk, done, chunk.length - done, this.#written + done);
    } catch {
      this.#failed = true;
      return;
    }
    this.#written += chunk.length;
    this.#pending.clear();
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
