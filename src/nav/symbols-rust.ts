import type { Node } from "web-tree-sitter";
import type { LeadingRules, SymbolCollector } from "./symbol-collector.ts";
import type { SymbolKind } from "./symbol.ts";

/** Rust declarations are preceded by `#[…]` attributes and `///` or `/** *\/` doc comments. */
export const rustRules: LeadingRules = {
  decorations: new Set(["attribute_item"]),
  isDocComment: (text) => (text.startsWith("///") && !text.startsWith("////")) || text.startsWith("/**"),
};

const ITEMS: Record<string, SymbolKind> = {
  struct_item: "struct",
  union_item: "struct",
  enum_item: "enum",
  trait_item: "trait",
  type_item: "type",
  const_item: "constant",
  static_item: "constant",
  mod_item: "module",
  macro_definition: "macro",
};

/** Collects the symbols of a Rust syntax tree; `impl` blocks qualify their functions by the type (`Point.new`). */
export function collectRustSymbols(root: Node, collector: SymbolCollector): void {
  visitItems(root, collector, undefined, false);
}

function visitItems(parent: Node, collector: SymbolCollector, container: string | undefined, inType: boolean): void {
  for (const node of parent.namedChildren) {
    if (!node) continue;
    if (node.type === "function_item" || node.type === "function_signature_item") {
      const name = node.childForFieldName("name")?.text;
      if (name) collector.add({ node, name, nameNode: node.childForFieldName("name"), kind: inType ? "method" : "function", container, body: node.childForFieldName("body") });
    } else if (node.type === "impl_item") {
      // `impl Display for Point` qualifies its functions as Rust does: `<Point as Display>.fmt` (also found as `Point.fmt`).
      const type = typeName(node.childForFieldName("type"));
      const trait = node.childForFieldName("trait")?.text.replace(/\s+/g, " ");
      const body = node.childForFieldName("body");
      const owner = trait ? `<${type} as ${trait}>` : type;
      if (type && body) visitItems(body, collector, container ? `${container}.${owner}` : owner, true);
    } else if (node.type in ITEMS) {
      const name = node.childForFieldName("name")?.text;
      if (!name) continue;
      const kind = ITEMS[node.type];
      const body = kind === "constant" || kind === "type" ? undefined : node.childForFieldName("body") ?? node.namedChildren.find((child) => child?.type === "macro_rule");
      const qualified = collector.add({ node, name, nameNode: node.childForFieldName("name"), kind, container, body });
      if (kind === "module" && body) visitItems(body, collector, qualified, false);
      else if (kind === "trait" && body) visitItems(body, collector, qualified, true);
      else if (kind === "struct" && body?.type === "field_declaration_list") {
        for (const field of body.namedChildren) {
          const fieldName = field?.type === "field_declaration" ? field.childForFieldName("name")?.text : undefined;
          if (field && fieldName) collector.add({ node: field, name: fieldName, nameNode: field.childForFieldName("name"), kind: "property", container: qualified });
        }
      }
    }
  }
}

function typeName(type: Node | null): string | undefined {
  let node = type;
  while (node && (node.type === "generic_type" || node.type === "reference_type" || node.type === "scoped_type_identifier")) {
    node = node.childForFieldName(node.type === "scoped_type_identifier" ? "name" : "type");
  }
  return node?.text;
}
