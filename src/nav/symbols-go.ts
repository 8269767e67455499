import type { Node } from "web-tree-sitter";
import type { LeadingRules, SymbolCollector } from "./symbol-collector.ts";
import type { SymbolKind } from "./symbol.ts";

/** Go doc comments are the `//` or `/* *\/` comments directly above a declaration. */
export const goRules: LeadingRules = {
  decorations: new Set(),
  isDocComment: () => true,
};

/** Collects the symbols of a Go syntax tree; methods are qualified by their receiver type (`Server.Start`). */
export function collectGoSymbols(root: Node, collector: SymbolCollector): void {
  for (const node of root.namedChildren) {
    if (!node) continue;
    switch (node.type) {
      case "function_declaration": {
        const name = node.childForFieldName("name")?.text;
        if (name) collector.add({ node, name, nameNode: node.childForFieldName("name"), kind: "function", body: node.childForFieldName("body") });
        break;
      }
      case "method_declaration": {
        const name = node.childForFieldName("name")?.text;
        const receiver = receiverType(node.childForFieldName("receiver"));
        if (name) collector.add({ node, name, nameNode: node.childForFieldName("name"), kind: "method", ...(receiver ? { container: receiver } : {}), body: node.childForFieldName("body") });
        break;
      }
      case "type_declaration": {
        const specs = node.namedChildren.filter((child) => child?.type === "type_spec" || child?.type === "type_alias");
        for (const spec of specs) {
          if (spec) addType(spec, specs.length === 1 ? node : spec, collector);
        }
        break;
      }
      case "const_declaration":
      case "var_declaration": {
        const specs = node.namedChildren.filter((child) => child?.type === "const_spec" || child?.type === "var_spec");
        const kind: SymbolKind = node.type === "const_declaration" ? "constant" : "variable";
        for (const spec of specs) {
          if (!spec) continue;
          for (const nameNode of spec.childrenForFieldName("name")) {
            if (nameNode && nameNode.text !== "_") collector.add({ node: specs.length === 1 ? node : spec, name: nameNode.text, nameNode, kind });
          }
        }
        break;
      }
      default:
        break;
    }
  }
}

function addType(spec: Node, range: Node, collector: SymbolCollector): void {
  const name = spec.childForFieldName("name")?.text;
  const type = spec.childForFieldName("type");
  if (!name) return;
  const kind: SymbolKind = type?.type === "struct_type" ? "struct" : type?.type === "interface_type" ? "interface" : "type";
  const body = kind === "struct" ? type?.namedChild(0) : kind === "interface" ? type?.children.find((child) => child?.type === "{") : undefined;
  const qualified = collector.add({ node: range, name, nameNode: spec.childForFieldName("name"), kind, body });
  if (kind === "struct" && body) {
    for (const field of body.namedChildren) {
      if (field?.type !== "field_declaration") continue;
      for (const fieldName of field.childrenForFieldName("name")) {
        if (fieldName) collector.add({ node: field, name: fieldName.text, nameNode: fieldName, kind: "property", container: qualified });
      }
    }
  } else if (kind === "interface" && type) {
    for (const method of type.namedChildren) {
      if (method && (method.type === "method_elem" || method.type === "method_spec")) {
        const methodName = method.childForFieldName("name")?.text;
        if (methodName) collector.add({ node: method, name: methodName, nameNode: method.childForFieldName("name"), kind: "method", container: qualified });
      }
    }
  }
}

function receiverType(receiver: Node | null): string | undefined {
  const parameter = receiver?.namedChildren.find((child) => child?.type === "parameter_declaration");
  let type = parameter?.childForFieldName("type");
  while (type && (type.type === "pointer_type" || type.type === "generic_type" || type.type === "parenthesized_type")) {
    type = type.type === "generic_type" ? type.childForFieldName("type") : type.namedChild(0);
  }
  return type?.text;
}
