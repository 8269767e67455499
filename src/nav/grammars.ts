import { createRequire } from "node:module";
import { Language, Parser } from "web-tree-sitter";
import type { GrammarName } from "./languages.ts";

const require = createRequire(import.meta.url);
let runtime: Promise<void> | undefined;
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
      runtime ??= Parser.init();
      await runtime;
      const language = await Language.load(require.resolve(`@repomix/tree-sitter-wasms/out/tree-sitter-${grammar}.wasm`));
      const created = new Parser();
      created.setLanguage(language);
      return created;
    })();
    parsers.set(grammar, parser);
  }
  return parser;
}
