import type { Node } from "web-tree-sitter";
import type { LeadingRules, SymbolCollector } from "./symbol-collector.ts";
import type { SymbolKind } from "./symbol.ts";
import { splitQualified } from "./symbol-names.ts";

/** C and C++ doc comments are the comments directly above a declaration. */
export const cRules: LeadingRules = {
  decorations: new Set(),
  isDocComment: () => true,
};

// Nodes whose children are declarations at the same level.
const TRANSPARENT = new Set(["preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif", "linkage_specification", "declaration_list"]);
const CLASS_LIKE: Record<string, SymbolKind> = { class_specifier: "class", struct_specifier: "struct", union_specifier: "struct" };

/**
 * Collects the symbols of a C or C++ syntax tree: functions (definitions, and
 * prototypes that have no definition in the same file), structs, classes,
 * enums, typedefs, macros, namespaces and their members. `Shape::area` defined
 * outside its class is named `Shape.area`.
 */
export function collectCSymbols(root: Node, collector: SymbolCollector): void {
  const defined = new Set<string>();
  collectDefinitions(root, defined);
  visit(root, collector, undefined, false, defined);
}

function visit(parent: Node, collector: SymbolCollector, container: string | undefined, inClass: boolean, defined: Set<string>): void {
  for (const node of parent.namedChildren) {
    if (node) visitNode(node, node, collector, container, inClass, defined);
  }
}

function visitNode(node: Node, outer: Node, collector: SymbolCollector, container: string | undefined, inClass: boolean, defined: Set<string>): void {
  switch (node.type) {
    case "preproc_ifdef":
    case "preproc_if":
    case "preproc_else":
    case "preproc_elif":
    case "linkage_specification":
    case "declaration_list":
      visit(node, collector, container, inClass, defined);
      return;
    case "template_declaration": {
      const inner = node.namedChildren.find((child) => child && child.type !== "template_parameter_list");
      if (inner) visitNode(inner, outer, collector, container, inClass, defined);
      return;
    }
    case "namespace_definition": {
      const name = node.childForFieldName("name")?.text;
      const body = node.childForFieldName("body");
      // An anonymous namespace's members are named as C++ names them in the file: unqualified.
      const qualified = name === undefined ? container : collector.add({ node: outer, name: name.replace(/::/g, "."), kind: "namespace", container, body });
      if (body) visit(body, collector, qualified, false, defined);
      return;
    }
    case "class_specifier":
    case "struct_specifier":
    case "union_specifier":
      addClass(node, outer, collector, container, defined);
      return;
    case "enum_specifier": {
      const name = node.childForFieldName("name")?.text;
      const body = node.childForFieldName("body");
      if (name && body) collector.add({ node: outer, name, kind: "enum", container, body });
      return;
    }
    case "type_definition": {
      const type = node.childForFieldName("type");
      if (type && type.childForFieldName("body") && (type.type in CLASS_LIKE || type.type === "enum_specifier")) visitNode(type, type, collector, container, inClass, defined);
      for (const declarator of node.childrenForFieldName("declarator")) {
        const name = declarator ? declaredName(declarator) : undefined;
        if (name) collector.add({ node: outer, name, kind: "type", container });
      }
      return;
    }
    case "alias_declaration": {
      const name = node.childForFieldName("name")?.text;
      if (name) collector.add({ node: outer, name, kind: "type", container });
      return;
    }
    case "preproc_def":
    case "preproc_function_def": {
      // A `#define` with no value is an include guard or a flag, not something to navigate to.
      if (node.type === "preproc_def" && !node.childForFieldName("value")) return;
      const name = node.childForFieldName("name")?.text;
      if (name && !inClass) collector.add({ node: outer, name, kind: "macro", container });
      return;
    }
    case "function_definition": {
      const declarator = node.childForFieldName("declarator");
      const name = declarator ? declaredName(declarator) : undefined;
      if (!name) return;
      // `Stack<T>::push` is a member of `Stack`: template arguments of the scope are not part of the class name.
      const parts = splitQualified(name.replace(/::/g, ".")).map((part, index, all) => (index < all.length - 1 ? part.replace(/<.*>$/, "") : part));
      const own = parts.pop() as string;
      const scope = [container, ...parts].filter(Boolean).join(".") || undefined;
      const owner = inClass ? container : parts.length > 0 ? parts[parts.length - 1] : undefined;
      const kind: SymbolKind = owner && own === owner.split(".").pop() ? "constructor" : inClass || parts.length > 0 ? "method" : "function";
      collector.add({ node: outer, name: own, kind, container: scope, body: node.childForFieldName("body") });
      return;
    }
    case "declaration":
    case "field_declaration": {
      const type = node.childForFieldName("type");
      if (type && type.childForFieldName("body") && (type.type in CLASS_LIKE || type.type === "enum_specifier")) {
        visitNode(type, node, collector, container, inClass, defined);
        return;
      }
      for (const declarator of node.childrenForFieldName("declarator")) {
        if (!declarator) continue;
        const isFunction = hasFunctionDeclarator(declarator);
        const name = declaredName(declarator);
        if (!name) continue;
        if (isFunction) {
          const ownerName = container?.split(".").pop();
          const kind: SymbolKind = inClass ? (name === ownerName ? "constructor" : "method") : "function";
          if (!inClass && defined.has(name)) continue;
          collector.add({ node: outer, name, kind, container });
        } else if (inClass || node.type === "declaration") {
          collector.add({ node: outer, name, kind: inClass ? "property" : "variable", container });
        }
      }
      return;
    }
    default:
      return;
  }
}

function addClass(node: Node, outer: Node, collector: SymbolCollector, container: string | undefined, defined: Set<string>): void {
  const name = node.childForFieldName("name")?.text;
  const body = node.childForFieldName("body");
  if (!name || !body) return;
  const qualified = collector.add({ node: outer, name, kind: CLASS_LIKE[node.type], container, body });
  visit(body, collector, qualified, true, defined);
}

function collectDefinitions(parent: Node, defined: Set<string>): void {
  for (const node of parent.namedChildren) {
    if (!node) continue;
    if (node.type === "function_definition") {
      const declarator = node.childForFieldName("declarator");
      const name = declarator ? declaredName(declarator) : undefined;
      if (name) defined.add(name);
    } else if (TRANSPARENT.has(node.type) || node.type === "namespace_definition" || node.type === "template_declaration") {
      collectDefinitions(node.childForFieldName("body") ?? node, defined);
    }
  }
}

function hasFunctionDeclarator(declarator: Node): boolean {
  let node: Node | null = declarator;
  while (node) {
    if (node.type === "function_declarator") return true;
    // A reference declarator (`T &operator[](…)`) holds its declarator as a plain child.
    node = node.childForFieldName("declarator") ?? (node.type === "reference_declarator" ? node.namedChild(0) : null);
  }
  return false;
}

// The identifier a declarator declares, following pointers, references, arrays and functions.
function declaredName(declarator: Node): string | undefined {
  let node: Node | null = declarator;
  while (node) {
    switch (node.type) {
      case "identifier":
      case "field_identifier":
      case "type_identifier":
      case "destructor_name":
      case "operator_name":
      case "qualified_identifier":
      case "template_type":
        return compactName(node.text);
      default: {
        const inner: Node | null = node.childForFieldName("declarator") ?? node.namedChildren.find((child) => child?.type !== "type_qualifier") ?? null;
        if (!inner || inner.id === node.id) return undefined;
        node = inner;
      }
    }
  }
  return undefined;
}

// `operator ==` and `Foo< int >::bar` written without spaces, as they are looked up; `operator new` keeps its one.
function compactName(text: string): string {
  return text.replace(/\s+/g, " ").replace(/ (?=[^\w$])|(?<=[^\w$]) /g, "");
}
