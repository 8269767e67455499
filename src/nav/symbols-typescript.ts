import type { Node } from "web-tree-sitter";
import type { LeadingRules, SymbolCollector } from "./symbol-collector.ts";
import type { SymbolKind } from "./symbol.ts";

/** What may precede a TypeScript or JavaScript declaration: decorators and `/** … *\/` comments. */
export const typescriptRules: LeadingRules = {
  decorations: new Set(["decorator"]),
  isDocComment: (text) => text.startsWith("/**"),
};

const CLASS_LIKE: Record<string, SymbolKind> = {
  class_declaration: "class",
  abstract_class_declaration: "class",
  interface_declaration: "interface",
};

/** Collects the symbols of a TypeScript, TSX, JavaScript or JSX syntax tree. */
export function collectTypescriptSymbols(root: Node, collector: SymbolCollector): void {
  visitStatements(root, collector, undefined);
}

function visitStatements(parent: Node, collector: SymbolCollector, container: string | undefined): void {
  for (const child of parent.namedChildren) {
    if (child) visitStatement(child, child, collector, container);
  }
}

// `outer` is the node that carries the range: an `export` statement around its declaration.
function visitStatement(node: Node, outer: Node, collector: SymbolCollector, container: string | undefined): void {
  switch (node.type) {
    case "export_statement": {
      const declaration = node.childForFieldName("declaration");
      if (declaration) visitStatement(declaration, outer, collector, container);
      else {
        const value = node.childForFieldName("value");
        if (value && (value.type === "class" || value.type === "function_expression" || value.type === "arrow_function")) {
          const kind = value.type === "class" ? "class" : "function";
          const qualified = collector.add({ node: outer, name: "default", kind, container, body: value.childForFieldName("body") });
          if (value.type === "class") visitClassBody(value.childForFieldName("body"), collector, qualified);
        }
      }
      return;
    }
    case "ambient_declaration":
    case "expression_statement": {
      for (const child of node.namedChildren) {
        if (child && (child.type === "module" || child.type === "internal_module" || child.type.endsWith("declaration") || child.type === "function_signature")) {
          visitStatement(child, outer, collector, container);
        }
      }
      return;
    }
    case "class_declaration":
    case "abstract_class_declaration":
    case "interface_declaration": {
      const name = nameOf(node);
      if (!name) return;
      const body = node.childForFieldName("body");
      const qualified = collector.add({ node: outer, name, nameNode: node.childForFieldName("name"), kind: CLASS_LIKE[node.type], container, body });
      visitClassBody(body, collector, qualified);
      return;
    }
    case "function_declaration":
    case "generator_function_declaration":
    case "function_signature": {
      const name = nameOf(node);
      if (name) collector.add({ node: outer, name, nameNode: node.childForFieldName("name"), kind: "function", container, body: node.childForFieldName("body") });
      return;
    }
    case "type_alias_declaration": {
      const name = nameOf(node);
      if (name) collector.add({ node: outer, name, kind: "type", container });
      return;
    }
    case "enum_declaration": {
      const name = nameOf(node);
      if (name) collector.add({ node: outer, name, kind: "enum", container, body: node.childForFieldName("body") });
      return;
    }
    case "module":
    case "internal_module": {
      const nameNode = node.childForFieldName("name");
      if (!nameNode) return;
      const name = nameNode.type === "string" ? nameNode.text.slice(1, -1) : nameNode.text;
      const body = node.childForFieldName("body");
      const qualified = collector.add({ node: outer, name, kind: node.type === "module" ? "module" : "namespace", container, body });
      if (body) visitStatements(body, collector, qualified);
      return;
    }
    case "lexical_declaration":
    case "variable_declaration": {
      const constant = node.child(0)?.text === "const";
      const declarators = node.namedChildren.filter((child) => child?.type === "variable_declarator");
      for (const declarator of declarators) {
        if (!declarator) continue;
        const nameNode = declarator.childForFieldName("name");
        if (!nameNode || nameNode.type !== "identifier") continue;
        const value = declarator.childForFieldName("value");
        const isFunction = value && (value.type === "arrow_function" || value.type === "function_expression" || value.type === "function");
        const isClass = value && value.type === "class";
        const kind: SymbolKind = isFunction ? "function" : isClass ? "class" : constant ? "constant" : "variable";
        const range = declarators.length === 1 ? outer : declarator;
        const body = isFunction || isClass ? value.childForFieldName("body") : undefined;
        const qualified = collector.add({ node: range, name: nameNode.text, nameNode, kind, container, body });
        if (isClass) visitClassBody(value.childForFieldName("body"), collector, qualified);
      }
      return;
    }
    default:
      return;
  }
}

function visitClassBody(body: Node | null, collector: SymbolCollector, container: string): void {
  if (!body) return;
  for (const member of body.namedChildren) {
    if (!member) continue;
    switch (member.type) {
      case "method_definition":
      case "method_signature":
      case "abstract_method_signature": {
        const name = nameOf(member);
        if (!name) break;
        const kind: SymbolKind = name === "constructor" ? "constructor" : "method";
        collector.add({ node: member, name, nameNode: member.childForFieldName("name"), kind, container, body: member.childForFieldName("body") });
        break;
      }
      case "public_field_definition":
      case "field_definition":
      case "property_signature": {
        const nameNode = member.childForFieldName("name") ?? member.childForFieldName("property");
        if (nameNode) collector.add({ node: member, name: nameNode.text, nameNode, kind: "property", container });
        break;
      }
      default:
        break;
    }
  }
}

function nameOf(node: Node): string | undefined {
  return node.childForFieldName("name")?.text;
}
