import { createRequire } from "node:module";
import type { Parser } from "web-tree-sitter";
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
