import fs from "node:fs";
import { openRegularFile, readRegularFile } from "./file-read.ts";
import { extractSymbols } from "./extract-symbols.ts";
import { BINARY_SNIFF_BYTES, looksBinary } from "./file-rules.ts";
import { detectLanguage, detectTextLanguage } from "./languages.ts";
import type { WalkedFile } from "./repo-walk.ts";
import type { NavSymbol } from "./symbol.ts";
import { trigramFilter } from "./trigram-filter.ts";


/** What the index knows about one file. */
export interface FileRecord {
  /** Path relative to the root, with `/`. */
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** The file's ctime when it was walked (with size and mtime, what a trigram filter is trusted for). */
  readonly ctimeMs: number;
  /** The detected language; absent when nothing identifies it. */
  readonly language?: string;
  /** True when the file looks binary (a NUL byte near the start); binary files are listed only. */
  readonly binary: boolean;
  /** True when the file is over the size cap; such files are listed and read by line range only. */
  readonly large: boolean;
  /** Line count; `null` for binary and large files. */
  readonly lines: number | null;
  /** Symbols in document order; empty for languages without a grammar. */
  readonly symbols: readonly NavSymbol[];
  /** `symbols.length`, known without reading the symbols (they load lazily from the disk cache). */
  readonly symbolCount: number;
  /** The trigram filter of a text file's bytes (see trigram-filter.ts); absent for binary, large and unreadable files. */
  readonly grams?: Uint8Array;
}

/**
 * The record of a listed file that was not analysed because its path led to another file (see
 * {@link analyzeFile}): nothing is known of it, and it is not to be kept.
 */
export function unreadRecord(file: WalkedFile): FileRecord {
  return { path: file.path, size: file.size, mtimeMs: file.mtimeMs, ctimeMs: file.ctimeMs, binary: false, large: false, lines: null, symbols: [], symbolCount: 0 };
}

/**
 * Reads one file and works out its language, line count and symbols.
 * Files over `maxFileBytes` are sniffed (first bytes only), never read whole.
 * `undefined` when the path now leads to another file than the one the walk
 * listed (a link, a folder on the way swapped for one): nothing of it is read.
 */
export async function analyzeFile(absolute: string, file: WalkedFile, maxFileBytes: number): Promise<FileRecord | undefined> {
  const base = { path: file.path, size: file.size, mtimeMs: file.mtimeMs, ctimeMs: file.ctimeMs };
  if (file.size > maxFileBytes) {
    const head = readHead(absolute, file);
    const binary = looksBinary(head);
    const language = binary ? undefined : detectLanguage(file.path, firstLine(head))?.language;
    return { ...base, ...(language ? { language } : {}), binary, large: true, lines: null, symbols: [], symbolCount: 0 };
  }
  // Only the file the walk listed: a path that leads to another now (a link, a folder on the way swapped for one) is not read.
  const buffer = readRegularFile(absolute, file);
  if (buffer === "another") return undefined;
  if (buffer === undefined) return { ...base, binary: false, large: false, lines: null, symbols: [], symbolCount: 0 };
  if (looksBinary(buffer)) {
    return { ...base, binary: true, large: false, lines: null, symbols: [], symbolCount: 0 };
  }
  const text = buffer.toString("utf8");
  const info = detectTextLanguage(file.path, text);
  let symbols: NavSymbol[] = [];
  if (info?.grammar) {
    try {
      symbols = await extractSymbols(text, info.grammar);
    } catch {
      symbols = [];
    }
  }
  return { ...base, ...(info ? { language: info.language } : {}), binary: false, large: false, lines: countLines(text), symbols, symbolCount: symbols.length, grams: trigramFilter(buffer) };
}

/** Lines in a text: newlines, plus one for a last line without a newline. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let count = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count++;
  return text.endsWith("\n") ? count : count + 1;
}

// The first bytes of the file the walk listed; none when the path cannot be read or leads to another file.
function readHead(absolute: string, file: WalkedFile): Buffer {
  const fd = openRegularFile(absolute, file);
  if (typeof fd !== "number") return Buffer.alloc(0);
  try {
    const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
    return buffer.subarray(0, fs.readSync(fd, buffer, 0, buffer.length, 0));
  } catch {
    return Buffer.alloc(0);
  } finally {
    fs.closeSync(fd);
  }
}

function firstLine(head: Buffer): string {
  const text = head.toString("utf8");
  const end = text.indexOf("\n");
  return end === -1 ? text : text.slice(0, end);
}
