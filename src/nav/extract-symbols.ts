import { PARSE_TIME_LIMIT_MS, parseWithin } from "./grammars.ts";
import type { GrammarName } from "./languages.ts";
import { SymbolCollector, type LeadingRules } from "./symbol-collector.ts";
import type { NavSymbol } from "./symbol.ts";
import { collectCSymbols, cRules } from "./symbols-c.ts";
import { collectGoSymbols, goRules } from "./symbols-go.ts";
import { collectJavaSymbols, javaRules } from "./symbols-java.ts";
import { collectPythonSymbols, pythonRules } from "./symbols-python.ts";
import { collectRustSymbols, rustRules } from "./symbols-rust.ts";
import { collectTypescriptSymbols, typescriptRules } from "./symbols-typescript.ts";
import type { Node } from "web-tree-sitter";

interface Extractor {
  readonly rules: LeadingRules;
  readonly collect: (root: Node, collector: SymbolCollector) => void;
}

const EXTRACTORS: Record<GrammarName, Extractor> = {
  typescript: { rules: typescriptRules, collect: collectTypescriptSymbols },
  tsx: { rules: typescriptRules, collect: collectTypescriptSymbols },
  javascript: { rules: typescriptRules, collect: collectTypescriptSymbols },
  python: { rules: pythonRules, collect: collectPythonSymbols },
  go: { rules: goRules, collect: collectGoSymbols },
  rust: { rules: rustRules, collect: collectRustSymbols },
  java: { rules: javaRules, collect: collectJavaSymbols },
  c: { rules: cRules, collect: collectCSymbols },
  cpp: { rules: cRules, collect: collectCSymbols },
};

/**
 * Parses source text with a tree-sitter grammar and returns its symbols in
 * document order. Parse errors are tolerated: whatever parsed is reported. A parse
 * that takes longer than `parseLimitMs` is given up, and there are no symbols.
 *
 * @example
 * await extractSymbols("class A { m() {} }", "typescript")
 * // [{ name: "A", kind: "class", startLine: 1, ... }, { name: "A.m", kind: "method", container: "A", ... }]
 */
export async function extractSymbols(source: string, grammar: GrammarName, parseLimitMs = PARSE_TIME_LIMIT_MS): Promise<NavSymbol[]> {
  const tree = await parseWithin(grammar, source, parseLimitMs);
  if (!tree) return [];
  try {
    const extractor = EXTRACTORS[grammar];
    const collector = new SymbolCollector(source, extractor.rules);
    extractor.collect(tree.rootNode, collector);
    return collector.symbols;
  } finally {
    tree.delete();
  }
}
