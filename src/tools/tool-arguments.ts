import { Ajv, type ValidateFunction } from "ajv";
import type { Tool } from "./tool.ts";
import type { JsonSchema } from "./json-schema.ts";

const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: false });
const validators = new WeakMap<object, ValidateFunction>();

/** The outcome of matching positional guest arguments to a tool's schema. */
export type ArgumentCheck =
  | { readonly ok: true; readonly args: Record<string, unknown> }
  | { readonly ok: false; readonly message: string };

/**
 * Maps positional arguments to named ones (in the order of `parameters.properties`)
 * and validates them against the tool's schema. Trailing `undefined` slots are dropped.
 */
export function checkToolArguments(tool: Tool, positional: readonly unknown[]): ArgumentCheck {
  const names = Object.keys(tool.parameters.properties);
  if (positional.length > names.length) {
    return { ok: false, message: `${tool.name} takes at most ${names.length} argument${names.length === 1 ? "" : "s"} (${toolSignature(tool)}), got ${positional.length}.` };
  }
  const args: Record<string, unknown> = {};
  positional.forEach((value, index) => {
    if (value !== undefined) args[names[index]] = value;
  });
  let validate = validators.get(tool.parameters);
  if (!validate) {
    validate = ajv.compile(tool.parameters);
    validators.set(tool.parameters, validate);
  }
  if (validate(args)) return { ok: true, args };
  const problems = (validate.errors ?? []).map((error) => {
    const where = error.instancePath ? error.instancePath.slice(1).replace(/\//g, ".") : "arguments";
    if (error.keyword === "required") return `missing required argument '${String(error.params.missingProperty)}'`;
    if (error.keyword === "additionalProperties") return `${where}: unknown option '${String(error.params.additionalProperty)}'`;
    return `${where} ${error.message ?? "is invalid"}`;
  });
  return { ok: false, message: `${tool.name}: ${[...new Set(problems)].join("; ")}. Expected ${toolSignature(tool)}.` };
}

/** Renders a TypeScript-like signature, e.g. `nav_read(target: string, options?: {chunk?: number})`. */
export function toolSignature(tool: Tool): string {
  const required = new Set(tool.parameters.required ?? []);
  const params = Object.entries(tool.parameters.properties).map(
    ([name, schema]) => `${name}${required.has(name) ? "" : "?"}: ${schemaType(schema)}`,
  );
  return `${tool.name}(${params.join(", ")})`;
}

function schemaType(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  const type = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (type.length === 0) return "any";
  return type
    .map((name) => {
      if (name === "integer") return "number";
      if (name === "array") return `${schema.items ? wrapUnion(schemaType(schema.items)) : "any"}[]`;
      if (name === "object" && schema.properties) {
        const required = new Set(schema.required ?? []);
        const fields = Object.entries(schema.properties).map(
          ([key, value]) => `${key}${required.has(key) ? "" : "?"}: ${schemaType(value)}`,
        );
        return `{${fields.join(", ")}}`;
      }
      return name;
    })
    .join(" | ");
}

function wrapUnion(text: string): string {
  return text.includes(" | ") ? `(${text})` : text;
}
