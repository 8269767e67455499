import { RESERVED_PREFIX } from "../../sandbox/index.ts";
import type { Tool } from "./tool.ts";
import type { ToolParameters } from "./json-schema.ts";

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
  return Object.freeze({ ...tool });
}
