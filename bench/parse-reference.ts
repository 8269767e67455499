/**
 * The reference for the nav bench's cold index: tree-sitter alone, with the grammars rlmkit ships,
 * parsing the files an index parses (the walk's files with a grammar by name or shebang, up to the
 * index's size limit, not binary), in as many processes as an index has workers (one per core, at
 * most eight), each taking every n-th file. No symbols,
 * no cache, no trigram filters: what parsing the corpus costs on this machine, so that the cold
 * index's time reads as a ratio of it (the parse is most of an index's work, and its speed is the
 * machine's).
 *
 * Run by bench/nav.ts; `node bench/parse-reference.ts ROOT` prints it alone (after `npm run build`).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { DEFAULT_MAX_FILE_BYTES } from "../dist/src/nav/create-nav-tools.js";
import { looksBinary } from "../dist/src/nav/file-rules.js";
import { grammarParser } from "../dist/src/nav/grammars.js";
import { indexWorkerCount } from "../dist/src/nav/index-workers.js";
import { detectLanguage, detectTextLanguage, needsShebang } from "../dist/src/nav/languages.js";
import type { GrammarName } from "../dist/src/nav/languages.js";
import { walkRepository, type WalkedFile } from "../dist/src/nav/repo-walk.js";

/** What the parse took: the slowest share's time (from its walk to its last parse), and what all shares parsed. */
export interface ParseReference {
  readonly ms: number;
  readonly processes: number;
  readonly files: number;
  readonly bytes: number;
}

interface Share {
  readonly ms: number;
  readonly files: number;
  readonly bytes: number;
}

/** Parses the corpus at `root` in as many processes as an index has workers, at once, and answers when every one has. */
export async function parseReference(root: string): Promise<ParseReference> {
  const processes = indexWorkerCount();
  const shares = await Promise.all(Array.from({ length: processes }, (_, part) => runShare(root, part, processes)));
  return {
    ms: Math.max(...shares.map((share) => share.ms)),
    processes,
    files: shares.reduce((sum, share) => sum + share.files, 0),
    bytes: shares.reduce((sum, share) => sum + share.bytes, 0),
  };
}

function runShare(root: string, part: number, parts: number): Promise<Share> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), "--share", root, String(part), String(parts)], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(JSON.parse(out) as Share) : reject(new Error(`a parse share exited with ${code}`))));
  });
}

/**
 * The grammar an index parses a walked file with, and its bytes; undefined for a file it does not parse (see
 * analyzeFile in src/nav/file-analysis.ts: under the size limit, not binary, a grammar by its name or its
 * shebang) or one gone since the walk. A file whose name gives no grammar and cannot be decided by its first
 * line is not read.
 */
export function parsedAs(root: string, file: WalkedFile): { grammar: GrammarName; buffer: Buffer; text: string } | undefined {
  if (file.size > DEFAULT_MAX_FILE_BYTES) return undefined;
  if (!needsShebang(file.path) && !detectLanguage(file.path)?.grammar) return undefined;
  let buffer: Buffer;
  try {
    buffer = readFileSync(path.join(root, file.path));
  } catch {
    // Gone since the walk: an index finds it so too.
    return undefined;
  }
  if (looksBinary(buffer)) return undefined;
  const text = buffer.toString("utf8");
  const grammar = detectTextLanguage(file.path, text)?.grammar;
  return grammar ? { grammar, buffer, text } : undefined;
}

// One share: the walk (as an index's), then every `parts`-th file an index would parse, read and parsed.
async function share(root: string, part: number, parts: number): Promise<Share> {
  const started = performance.now();
  const walked = walkRepository(root).files;
  let files = 0;
  let bytes = 0;
  for (let index = part; index < walked.length; index += parts) {
    const parsed = parsedAs(root, walked[index]!);
    if (!parsed) continue;
    (await grammarParser(parsed.grammar)).parse(parsed.text)?.delete();
    files++;
    bytes += parsed.buffer.length;
  }
  return { ms: performance.now() - started, files, bytes };
}

if (process.argv[2] === "--share") {
  console.log(JSON.stringify(await share(process.argv[3]!, Number(process.argv[4]), Number(process.argv[5]))));
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2]) {
  const reference = await parseReference(process.argv[2]);
  console.log(`tree-sitter alone: ${(reference.ms / 1000).toFixed(2)} s on ${reference.processes} processes, ${reference.files} files, ${(reference.bytes / 1e6).toFixed(0)} MB`);
}
