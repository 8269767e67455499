import { createRequire } from "node:module";
import type { Parser, Tree } from "web-tree-sitter";
import type { GrammarName } from "./languages.ts";

const require = createRequire(import.meta.url);
// The runtime's module, loaded and started on first use: a process that finds every file in the
// index's disk cache (a search, say) never parses one, and importing it costs 3 ms.
let runtime: Promise<typeof import("web-tree-sitter")> | undefined;
const parsers = new Map<GrammarName, Promise<Parser>>();

/**
 * The parser for a grammar, loading the tree-sitter runtime and the grammar's
 * prebuilt `.wasm` (from `@repomix/tree-sitter-wasms`) on first use; one per
 * grammar for the life of the process.
 */
export function grammarParser(grammar: GrammarName): Promise<Parser> {
  let parser = parsers.get(grammar);
  if (!parser) {
    parser = (async () => {
      runtime ??= import("web-tree-sitter").then(async (treeSitter) => {
        await treeSitter.Parser.init();
        return treeSitter;
      });
      const { Language, Parser } = await runtime;
      const language = await Language.load(require.resolve(`@repomix/tree-sitter-wasms/out/tree-sitter-${grammar}.wasm`));
      const created = new Parser();
      created.setLanguage(language);
      return created;
    })();
    parsers.set(grammar, parser);
  }
  return parser;
}

/**
 * How long one file's parse may take before it is given up (the file is then listed without symbols or
 * references): tree-sitter's error recovery on a large file that is not the language its name says (a
 * megabyte of plain text named `.ts`) can take seconds, where a megabyte of real code takes about one here.
 */
export const PARSE_TIME_LIMIT_MS = 3_000;

/** Parses `source` whole, or answers `null` once the parse has taken `limitMs` (see {@link PARSE_TIME_LIMIT_MS}). */
export async function parseWithin(grammar: GrammarName, source: string, limitMs = PARSE_TIME_LIMIT_MS): Promise<Tree | null> {
  const parser = await grammarParser(grammar);
  const started = performance.now();
  // Called by the parser every hundred or so steps; true stops it.
  const tree = parser.parse(source, null, { progressCallback: () => performance.now() - started > limitMs });
  // A parse given up leaves the parser mid-document: the next one starts afresh.
  if (!tree) parser.reset();
  return tree;
}
