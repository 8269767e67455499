import type { Tool } from "./tool.ts";
import type { JsonSchema } from "./json-schema.ts";

/** Renders a TypeScript-like signature, e.g. `nav_read(target: string, options?: {chunk?: number})`. */
export function toolSignature(tool: Tool): string {
  const required = new Set(tool.parameters.required ?? []);
  const params = Object.entries(tool.parameters.properties).map(
    ([name, schema]) => `${name}${required.has(name) ? "" : "?"}: ${schemaType(schema)}`,
  );
  return `${tool.name}(${params.join(", ")})`;
}

/** Renders one schema as a TypeScript-like type, e.g. `"asc" | "desc"` or `{chunk?: number}`. */
export function schemaType(schema: JsonSchema): string {
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
