import { interceptBlock } from "../../intercept/intercept-block.ts";
import type { JsonSchema } from "../../tools/json-schema.ts";
import type { Tool } from "../../tools/tool.ts";
import { checkToolArguments } from "../../tools/tool-arguments.ts";

/**
 * Named arguments to show in a tool's example call: its own `example` (written as
 * code, `const hits = nav_search("retry", { glob: "src/**" })`) read by position into
 * names, when that parses and fits the schema; otherwise a value for each required
 * parameter made from its schema (its default, first enum value or example, else a
 * placeholder of its type).
 */
export function exampleArguments(tool: Tool): Record<string, unknown> {
  if (tool.example) {
    const intercepted = interceptBlock(tool.example, new Set([tool.name]));
    const call = intercepted.ok ? intercepted.calls[0] : undefined;
    const checked = call ? checkToolArguments(tool, call.args) : undefined;
    if (checked?.ok) return checked.args;
  }
  const required = new Set(tool.parameters.required ?? []);
  return Object.fromEntries(Object.entries(tool.parameters.properties).filter(([name]) => required.has(name)).map(([name, schema]) => [name, sampleValue(schema, name)]));
}

function sampleValue(schema: JsonSchema, name: string): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string": return `<${name}>`;
    case "number": case "integer": return 1;
    case "boolean": return true;
    case "array": return schema.items ? [sampleValue(schema.items, name)] : [];
    case "object": {
      const required = new Set(schema.required ?? []);
      return Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([key]) => required.has(key)).map(([key, value]) => [key, sampleValue(value, key)]));
    }
    default: return null;
  }
}
