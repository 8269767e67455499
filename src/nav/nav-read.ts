import fs from "node:fs";
import { readRegularFile } from "./file-read.ts";
import readline from "node:readline";
import { leadsToRefused, pathNotFound, unreadable, type NavContext } from "./nav-context.ts";
import type { NavError, NavReadOptions, NavReadResult } from "./nav-results.ts";
import { parseTarget } from "./nav-target.ts";
import { resolveInside } from "./path-safety.ts";
import { resolveSymbol, type ResolvedSymbol } from "./symbol-lookup.ts";
import type { SymbolKind } from "./symbol.ts";

/**
 * `nav_read(target, { chunk })`: the source of a symbol (`"Parser.parse"`,
 * `"src/parser.ts#Parser.parse"`), a file (`"src/parser.ts"`) or a line range
 * (`"src/parser.ts:120-180"`). Overloads of one name in one file are read
 * together. Long results come in chunks that end on line boundaries.
 */
export async function navRead(context: NavContext, target: string, options: NavReadOptions = {}): Promise<NavReadResult | NavError> {
  const { chunk = 1 } = options;
  if (!Number.isInteger(chunk) || chunk < 1) return { error: `chunk must be a whole number from 1, got ${chunk}` };
  const parsed = parseTarget(context, target);
  if ("error" in parsed) return parsed;
  switch (parsed.type) {
    case "range": {
      const { path, startLine, endLine } = parsed;
      if (startLine < 1 || endLine < startLine) return { error: `bad line range '${target.slice(target.lastIndexOf(":") + 1)}': lines start at 1 and the end may not come before the start` };
      return readLines(context, path, startLine, endLine, chunk, true);
    }
    case "path": {
      if (parsed.resolved.type === "file") return readLines(context, parsed.resolved.path, 1, Infinity, chunk, false);
      // A directory cannot be read, so a symbol of the same name (`test`) is what was meant, if there is one.
      const symbol = parsed.resolved.path ? await resolveSymbol(context, parsed.resolved.path) : undefined;
      const directory = `'${parsed.resolved.path || "."}' is a directory`;
      // Several symbols of that name: each candidate reads as written.
      if (symbol && "error" in symbol && symbol.candidates) return { error: `${directory}, and symbols have that name too; list it with nav_ls, or read one of the candidates`, candidates: symbol.candidates };
      if (!symbol || "error" in symbol) return { error: `${directory}; list it with nav_ls or read a file in it` };
      return readSymbol(context, symbol, chunk);
    }
    case "missing-path":
      return pathNotFound(context, parsed.path);
    case "symbol":
      break;
  }
  const symbol = await resolveSymbol(context, parsed.name, parsed.file);
  if ("error" in symbol) return parsed.pathLike && !symbol.candidates ? pathNotFound(context, target) : symbol;
  return readSymbol(context, symbol, chunk);
}

async function readSymbol(context: NavContext, symbol: ResolvedSymbol, chunk: number): Promise<NavReadResult | NavError> {
  const startLine = Math.min(...symbol.symbols.map((entry) => entry.startLine));
  const endLine = Math.max(...symbol.symbols.map((entry) => entry.endLine));
  const [first] = symbol.symbols;
  const result = await readLines(context, symbol.path, startLine, endLine, chunk, true);
  if ("error" in result) return result;
  return { ...result, symbol: first.name, kind: first.kind as SymbolKind };
}

async function readLines(context: NavContext, relative: string, startLine: number, endLine: number, chunk: number, isRange: boolean): Promise<NavReadResult | NavError> {
  const record = await context.index.record(relative);
  if (!record) return unreadable(context, relative);
  if (record.binary) return { error: `'${relative}' is a binary file (${record.size} bytes); it cannot be read as text` };
  if (record.large && !isRange) {
    return { error: `'${relative}' is ${record.size} bytes, over the ${context.maxFileBytes}-byte cap for whole-file reads; read a line range such as '${relative}:1-200'` };
  }
  const safe = await resolveInside(context.index.root, relative);
  if (!safe.ok) return { error: safe.error };
  // A file that is (now) a symlink shows what it leads to, which may have changed since the walk listed it.
  const refusal = leadsToRefused(context, relative, safe.absolute);
  if (refusal) return { error: refusal.message, refused: refusal.reason };
  let lines: string[];
  if (record.large) lines = await streamLines(safe.absolute, startLine, endLine);
  else {
    const bytes = readRegularFile(safe.absolute);
    if (!(bytes instanceof Buffer)) return { error: `'${relative}' cannot be read now (it is no longer a regular file, or it went away)` };
    lines = sliceLines(bytes.toString("utf8"), startLine, endLine);
  }
  const total = record.large ? undefined : record.lines ?? 0;
  if (lines.length === 0) {
    return { error: `'${relative}' has ${total ?? "fewer than " + startLine} lines; line ${startLine} is past the end` };
  }
  const chunks = splitChunks(lines, context.maxReadChars);
  if (chunk > chunks.length) return { error: `chunk ${chunk} does not exist; this result has ${chunks.length} chunk${chunks.length === 1 ? "" : "s"}` };
  const [from, to] = chunks[chunk - 1];
  return {
    path: relative,
    startLine: startLine + from,
    endLine: startLine + to - 1,
    text: lines.slice(from, to).join("\n"),
    chunk,
    chunks: chunks.length,
  };
}

function sliceLines(text: string, startLine: number, endLine: number): string[] {
  const all = text.split("\n");
  if (all.length > 0 && all[all.length - 1] === "") all.pop();
  return all.slice(startLine - 1, endLine === Infinity ? undefined : endLine).map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

async function streamLines(absolute: string, startLine: number, endLine: number): Promise<string[]> {
  const lines: string[] = [];
  const stream = fs.createReadStream(absolute, { encoding: "utf8" });
  const reader = readline.createInterface({ input: stream, crlfDelay: Infinity });
  let number = 0;
  try {
    for await (const line of reader) {
      number++;
      if (number >= startLine) lines.push(line);
      if (number >= endLine) break;
    }
  } finally {
    reader.close();
    stream.destroy();
  }
  return lines;
}

// Splits lines into [from, to) chunks of at most `maxChars` characters each; an over-long line is cut.
function splitChunks(lines: string[], maxChars: number): [number, number][] {
  const chunks: [number, number][] = [];
  let from = 0;
  let size = 0;
  for (let index = 0; index < lines.length; index++) {
    if (lines[index].length > maxChars) lines[index] = `${lines[index].slice(0, maxChars)}… [line cut at ${maxChars} characters]`;
    const length = lines[index].length + 1;
    if (index > from && size + length > maxChars) {
      chunks.push([from, index]);
      from = index;
      size = 0;
    }
    size += length;
  }
  chunks.push([from, lines.length]);
  return chunks;
}
