import { RESERVED_PREFIX } from "../../sandbox/reserved-prefix.ts";
import type { Tool } from "./tool.ts";
import type { ToolParameters } from "./json-schema.ts";
import { validateToolArguments } from "./validate-arguments.ts";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Declares a tool the model's code may call in the intercepted form.
 *
 * @example
 * const lookup = defineTool({
 *   name: "lookup",
 *   description: "Finds a user by id.",
 *   parameters: { type: "object", properties: { id: { type: "number" } }, required: ["id"] },
 *   handler: ({ id }) => ({ id, name: "Ada" }),
 * });
 * // guest code: const user = lookup(7)
 *
 * With `nl: true` or `nl: { examples, instructions }` the tool may also be offered by
 * description (`runSession({ nlTools })`, `translateToolCall`); each example's output
 * must be valid arguments, an array of them, or `{ error, clarification_needed }`.
 */
export function defineTool<Args extends Record<string, unknown> = Record<string, any>>(tool: Tool<Args>): Tool<Args> {
  if (typeof tool.name !== "string" || !IDENTIFIER.test(tool.name)) {
    throw new TypeError(`defineTool: name ${JSON.stringify(tool.name)} is not a JavaScript identifier; use letters, digits, _ or $.`);
  }
  if (tool.name.startsWith(RESERVED_PREFIX)) {
    throw new TypeError(`defineTool: name '${tool.name}' uses the reserved prefix '${RESERVED_PREFIX}'.`);
  }
  const parameters: ToolParameters | undefined = tool.parameters;
  if (!parameters || parameters.type !== "object" || typeof parameters.properties !== "object" || parameters.properties === null) {
    throw new TypeError(`defineTool('${tool.name}'): parameters must be a JSON Schema object with type "object" and properties.`);
  }
  for (const name of parameters.required ?? []) {
    if (!(name in parameters.properties)) {
      throw new TypeError(`defineTool('${tool.name}'): required parameter '${name}' is not in properties (${Object.keys(parameters.properties).join(", ") || "none"}).`);
    }
  }
  if (typeof tool.handler !== "function") {
    throw new TypeError(`defineTool('${tool.name}'): handler must be a function.`);
  }
  checkNlOption(tool);
  return Object.freeze({ ...tool });
}

function checkNlOption(tool: Tool<any>): void {
  if (tool.nl === undefined || typeof tool.nl === "boolean") return;
  if (typeof tool.nl !== "object" || tool.nl === null) throw new TypeError(`defineTool('${tool.name}'): nl must be true, false or { examples, instructions }.`);
  for (const [index, example] of (tool.nl.examples ?? []).entries()) {
    if (typeof example?.description !== "string" || example.description.trim() === "") throw new TypeError(`defineTool('${tool.name}'): nl.examples[${index}].description must be a non-empty string.`);
    const output = example.output;
    if (output !== null && typeof output === "object" && !Array.isArray(output) && ("clarification_needed" in output)) continue;
    for (const item of Array.isArray(output) ? output : [output]) {
      const check = validateToolArguments(tool as Tool, item);
      if (!check.ok) throw new TypeError(`defineTool('${tool.name}'): nl.examples[${index}] ("${example.description}") does not fit the schema: ${check.message}`);
    }
  }
}
