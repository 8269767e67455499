import { createRequire } from "node:module";
import { Language, Parser } from "web-tree-sitter";
import type { GrammarName } from "./languages.ts";

const require = createRequire(import.meta.url);
let runtime: Promise<void> | undefined;
const languages = new Map<GrammarName, Promise<Language>>();

/**
 * Returns a parser for a grammar, loading the tree-sitter runtime and the
 * grammar's prebuilt `.wasm` (from `@repomix/tree-sitter-wasms`) on first use.
 * Parsers are cheap; languages are loaded once per process.
 */
export async function createGrammarParser(grammar: GrammarName): Promise<Parser> {
  runtime ??= Parser.init();
  await runtime;
  let language = languages.get(grammar);
  if (!language) {
    language = Language.load(require.resolve(`@repomix/tree-sitter-wasms/out/tree-sitter-${grammar}.wasm`));
    languages.set(grammar, language);
  }
  const parser = new Parser();
  parser.setLanguage(await language);
  return parser;
}
