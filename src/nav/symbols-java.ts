import type { Node } from "web-tree-sitter";
import type { LeadingRules, SymbolCollector } from "./symbol-collector.ts";
import type { SymbolKind } from "./symbol.ts";

/** Java annotations sit inside `modifiers`; doc comments are `/** … *\/` directly above. */
export const javaRules: LeadingRules = {
  decorations: new Set(),
  isDocComment: (text) => text.startsWith("/**"),
};

const TYPES: Record<string, SymbolKind> = {
  class_declaration: "class",
  record_declaration: "class",
  interface_declaration: "interface",
  annotation_type_declaration: "interface",
  enum_declaration: "enum",
};

/** Collects the symbols of a Java syntax tree; nested types are dotted (`Outer.Inner.Deeper`). */
export function collectJavaSymbols(root: Node, collector: SymbolCollector): void {
  visitMembers(root, collector, undefined);
}

function visitMembers(parent: Node, collector: SymbolCollector, container: string | undefined): void {
  for (const node of parent.namedChildren) {
    if (!node) continue;
    if (node.type in TYPES) {
      const name = node.childForFieldName("name")?.text;
      if (!name) continue;
      const body = node.childForFieldName("body");
      const qualified = collector.add({ node, name, nameNode: node.childForFieldName("name"), kind: TYPES[node.type], container, body });
      if (body) visitMembers(body, collector, qualified);
    } else if (node.type === "enum_body_declarations") {
      visitMembers(node, collector, container);
    } else if (container && (node.type === "method_declaration" || node.type === "constructor_declaration" || node.type === "compact_constructor_declaration")) {
      const name = node.childForFieldName("name")?.text;
      if (name) collector.add({ node, name, nameNode: node.childForFieldName("name"), kind: node.type === "method_declaration" ? "method" : "constructor", container, body: node.childForFieldName("body") });
    } else if (container && (node.type === "field_declaration" || node.type === "constant_declaration")) {
      for (const declarator of node.childrenForFieldName("declarator")) {
        const name = declarator?.childForFieldName("name")?.text;
        if (name) collector.add({ node, name, nameNode: declarator?.childForFieldName("name"), kind: "property", container });
      }
    }
  }
}
