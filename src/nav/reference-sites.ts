import type { Node } from "web-tree-sitter";

/** How a name is used at a reference site. */
export type ReferenceKind = "call" | "import" | "member" | "type" | "name";

/** One use of a name in a syntax tree. */
export interface ReferenceSite {
  /** Offset of the name in the source (UTF-16 code units, as tree-sitter reports them for JavaScript strings). */
  readonly index: number;
  readonly kind: ReferenceKind;
  /** What the name is reached through, when it is: `self`, `Parser`, `std.fmt` (`::` and `->` written `.`). */
  readonly qualifier?: string;
}

// Leaf nodes that spell a name, across the eight grammars.
const NAME_NODES = new Set([
  "identifier",
  "property_identifier",
  "private_property_identifier",
  "shorthand_property_identifier",
  "field_identifier",
  "type_identifier",
  "package_identifier",
  "namespace_identifier",
]);

// Parents that reach a member through an object or a scope, and the field that holds the member.
const MEMBER_FIELD: Record<string, string> = {
  member_expression: "property",
  attribute: "attribute",
  field_expression: "field",
  selector_expression: "field",
  field_access: "field",
  scoped_identifier: "name",
  scoped_type_identifier: "name",
  qualified_identifier: "name",
  method_invocation: "name",
};
const OBJECT_FIELDS: Record<string, readonly string[]> = {
  member_expression: ["object"],
  attribute: ["object"],
  // C and C++ name it `argument`, Rust `value`.
  field_expression: ["argument", "value"],
  selector_expression: ["operand"],
  field_access: ["object"],
  scoped_identifier: ["path"],
  scoped_type_identifier: ["path"],
  qualified_identifier: ["scope"],
  method_invocation: ["object"],
};

// Calls, and the field that holds what is called.
const CALLEE_FIELD: Record<string, string> = {
  call_expression: "function",
  call: "function",
  new_expression: "constructor",
  object_creation_expression: "type",
  macro_invocation: "macro",
};

// Wrappers around a callee that add type arguments: `f::<T>()`, `f<int>()`.
const GENERIC_CALLEES = new Set(["generic_function", "template_function", "template_method"]);

const IMPORTS = new Set([
  "import_statement",
  "import_from_statement",
  "future_import_statement",
  "import_declaration",
  "import_spec",
  "use_declaration",
  "using_declaration",
  "export_specifier",
]);

// A parent whose `name` (or `declarator`) field is the node declares it rather than uses it.
const DECLARES = /(declaration|definition|declarator|_item|_spec|signature|_elem|parameter|_pattern|variant|pair|keyword_argument|label)$/;
const PARAMETER_LISTS = new Set(["parameters", "lambda_parameters", "formal_parameters", "parameter_list", "identifier_list", "type_parameters"]);

/**
 * Classifies the name at `index` in a parsed tree: a call, an import, a
 * member use, a type or a plain name, or `undefined` when the text there is
 * no use of the name (a declaration, a parameter, a string, a comment, part
 * of a longer identifier).
 */
export function referenceAt(root: Node, index: number, name: string): ReferenceSite | undefined {
  const node = root.descendantForIndex(index, index + name.length);
  if (!node || node.startIndex !== index || node.text !== name || !NAME_NODES.has(node.type)) return undefined;
  const parent = node.parent;
  if (!parent || declares(parent, node)) return undefined;
  if (parent.type === "assignment" && parent.childForFieldName("left")?.id === node.id) return undefined;
  for (let ancestor: Node | null = parent, depth = 0; ancestor && depth < 6; ancestor = ancestor.parent, depth++) {
    if (IMPORTS.has(ancestor.type)) return { index, kind: "import" };
  }
  let expression: Node = node;
  let qualifier: string | undefined;
  const memberField = MEMBER_FIELD[parent.type];
  if (memberField && parent.childForFieldName(memberField)?.id === node.id) {
    const object = OBJECT_FIELDS[parent.type].map((field) => parent.childForFieldName(field)).find(Boolean);
    if (object) qualifier = object.text.replace(/::|->/g, ".").replace(/\s+/g, "");
    if (parent.type === "method_invocation") return { index, kind: "call", ...(qualifier ? { qualifier } : {}) };
    expression = parent;
  }
  const outer = expression.parent;
  const wrapper = outer && GENERIC_CALLEES.has(outer.type) && outer.childForFieldName(outer.type === "template_method" ? "name" : "function")?.id === expression.id ? outer : undefined;
  const callee = wrapper ?? expression;
  const call = callee.parent;
  const calleeField = call ? CALLEE_FIELD[call.type] : undefined;
  const site = (kind: ReferenceKind): ReferenceSite => ({ index, kind, ...(qualifier ? { qualifier } : {}) });
  if (call && calleeField && call.childForFieldName(calleeField)?.id === callee.id) return site("call");
  if (expression !== node) return site("member");
  return site(node.type === "type_identifier" ? "type" : "name");
}

function declares(parent: Node, node: Node): boolean {
  if (PARAMETER_LISTS.has(parent.type)) return true;
  if (!DECLARES.test(parent.type)) return false;
  // A JavaScript object key (`{ parse: 1 }`) names a property; a Python dict key (`{parse: 1}`) is an expression.
  if (parent.type === "pair") return node.type === "property_identifier" && parent.childForFieldName("key")?.id === node.id;
  for (const field of ["name", "declarator", "pattern", "left"]) {
    if (parent.childForFieldName(field)?.id === node.id) return true;
  }
  return false;
}
