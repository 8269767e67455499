import type { Node } from "acorn";

/** A literal argument's value, or why the node is not a literal. */
export type LiteralResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string; readonly node: Node };

/**
 * Evaluates a node that must be a literal: a string, number (negative too),
 * boolean, null, a template string without expressions, or an array/object
 * built only of those. Anything else (identifiers, calls, spreads, computed
 * keys, methods, getters, holes, regexes, bigints) is refused with a reason.
 */
export function literalValue(node: Node): LiteralResult {
  const n = node as any;
  switch (n.type) {
    case "Literal":
      if (n.regex) return fail(node, "a regular expression literal is not a JSON value; pass the pattern as a string");
      if (n.bigint !== undefined) return fail(node, "a BigInt is not a JSON value; use a number or a string");
      return { ok: true, value: n.value };
    case "UnaryExpression":
      if ((n.operator === "-" || n.operator === "+") && n.argument.type === "Literal" && typeof n.argument.value === "number") {
        return { ok: true, value: n.operator === "-" ? -n.argument.value : n.argument.value };
      }
      return fail(node, "only a number may follow a sign");
    case "TemplateLiteral":
      if (n.expressions.length > 0) return fail(node, "a template string with ${...} is computed; use a plain string");
      return { ok: true, value: n.quasis[0].value.cooked };
    case "ArrayExpression": {
      const values: unknown[] = [];
      for (const element of n.elements) {
        if (element === null) return fail(node, "an array with holes is not a literal");
        if (element.type === "SpreadElement") return fail(element, "spread (...) is not allowed in tool arguments");
        const inner = literalValue(element);
        if (!inner.ok) return inner;
        values.push(inner.value);
      }
      return { ok: true, value: values };
    }
    case "ObjectExpression": {
      const object: Record<string, unknown> = {};
      for (const property of n.properties) {
        if (property.type === "SpreadElement") return fail(property, "spread (...) is not allowed in tool arguments");
        if (property.computed) return fail(property, "computed keys ([key]: ...) are not allowed in tool arguments");
        if (property.kind !== "init" || property.method) return fail(property, "methods, getters and setters are not allowed in tool arguments");
        if (property.shorthand) return fail(property, `shorthand {${property.key.name}} refers to a variable; write ${property.key.name}: <literal value>`);
        const key = property.key.type === "Identifier" ? property.key.name : String(property.key.value);
        if (key === "__proto__") return fail(property, "the key __proto__ is not allowed");
        const inner = literalValue(property.value);
        if (!inner.ok) return inner;
        object[key] = inner.value;
      }
      return { ok: true, value: object };
    }
    case "Identifier":
      if (n.name === "undefined") return fail(node, "undefined is not a JSON value; leave the argument out or pass null");
      return fail(node, `'${n.name}' is a variable; tool arguments must be written out as literals`);
    default:
      return fail(node, "a computed expression; tool arguments must be literals (strings, numbers, booleans, null, arrays and objects of those)");
  }
}

function fail(node: Node, reason: string): LiteralResult {
  return { ok: false, reason, node };
}
