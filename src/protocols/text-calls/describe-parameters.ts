import type { JsonSchema } from "../../tools/json-schema.ts";
import type { Tool } from "../../tools/tool.ts";
import { schemaType } from "../../tools/tool-signature.ts";

/**
 * A tool's parameters as a Markdown list, one line each: name, type, required or
 * optional, description, default. A parameter that is an object with properties (or
 * an array of such objects) is followed by its JSON Schema, indented as a code block,
 * so its fields are spelled out. A tool without parameters says so.
 *
 * @example
 * // - `query` (string, required): what to search for
 * // - `options` (object, optional): ...
 * //       {"type":"object","properties":{"glob":{"type":"string"}}}
 */
export function describeParameters(tool: Tool): string {
  const required = new Set(tool.parameters.required ?? []);
  const entries = Object.entries(tool.parameters.properties);
  if (entries.length === 0) return "- none: send an empty object `{}`";
  return entries
    .map(([name, schema]) => {
      const facts = [schemaType(schema), required.has(name) ? "required" : "optional"].join(", ");
      const extras = [schema.description, schema.default !== undefined ? `default ${JSON.stringify(schema.default)}` : undefined].filter(Boolean).join("; ");
      const line = `- \`${name}\` (${facts})${extras ? `: ${extras}` : ""}`;
      return isComplex(schema) ? `${line}\n\n        ${JSON.stringify(schema)}` : line;
    })
    .join("\n");
}

function isComplex(schema: JsonSchema): boolean {
  if (schema.properties && Object.keys(schema.properties).length > 0) return true;
  return schema.items !== undefined && isComplex(schema.items);
}
