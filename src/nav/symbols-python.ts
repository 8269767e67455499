import type { Node } from "web-tree-sitter";
import { firstDocLine, type LeadingRules, type SymbolCollector } from "./symbol-collector.ts";
import type { SymbolKind } from "./symbol.ts";

/** Python declarations carry their decorators inside `decorated_definition`; docs are docstrings. */
export const pythonRules: LeadingRules = {
  decorations: new Set(["decorator"]),
  isDocComment: () => false,
  siblingsLead: false,
};

/** Collects the symbols of a Python syntax tree: classes, functions, methods and top-level or class-level assignments. */
export function collectPythonSymbols(root: Node, collector: SymbolCollector): void {
  visitBlock(root, collector, undefined, false);
}

function visitBlock(block: Node, collector: SymbolCollector, container: string | undefined, inClass: boolean): void {
  for (const statement of block.namedChildren) {
    if (!statement) continue;
    // Each node's type is read once: it is a call into the parser.
    const statementType = statement.type;
    const definition = statementType === "decorated_definition" ? statement.childForFieldName("definition") : statement;
    if (!definition) continue;
    const type = definition === statement ? statementType : definition.type;
    if (type === "class_definition" || type === "function_definition") {
      const nameNode = definition.childForFieldName("name");
      const name = nameNode?.text;
      if (!name) continue;
      const body = definition.childForFieldName("body");
      const isClass = type === "class_definition";
      const kind: SymbolKind = isClass ? "class" : inClass ? (name === "__init__" ? "constructor" : "method") : "function";
      const doc = body ? docstring(body, collector.source) : undefined;
      const qualified = collector.add({ node: statement, name, nameNode, kind, container, body, ...(doc ? { doc } : {}) });
      if (isClass && body) visitBlock(body, collector, qualified, true);
    } else if (statementType === "expression_statement") {
      const assignment = statement.namedChild(0);
      if (assignment?.type !== "assignment") continue;
      const left = assignment.childForFieldName("left");
      if (left?.type !== "identifier") continue;
      const name = left.text;
      const kind: SymbolKind = inClass ? "property" : /^[A-Z][A-Z0-9_]*$/.test(name) ? "constant" : "variable";
      collector.add({ node: statement, name, nameNode: left, kind, container });
    }
  }
}

// A string, with any prefix (`r`, `b`, `f`, `rb`, ...; the grammar takes a run of letters of any length): only a
// body that starts so can start with a docstring.
const STRING_START = /[A-Za-z]*["']/y;

function docstring(body: Node, source: string): string | undefined {
  // Read in the text first: most bodies start with code, and each question to the tree is a call into the parser.
  STRING_START.lastIndex = body.startIndex;
  if (!STRING_START.test(source)) return undefined;
  const first = body.namedChild(0);
  if (first?.type !== "expression_statement") return undefined;
  const string = first.namedChild(0);
  if (string?.type !== "string") return undefined;
  const content = string.namedChildren.find((child) => child?.type === "string_content");
  return content ? firstDocLine(content.text) : undefined;
}
