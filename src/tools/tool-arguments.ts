import type { Tool } from "./tool.ts";
import { toolSignature } from "./tool-signature.ts";
import { validateToolArguments } from "./validate-arguments.ts";

export { toolSignature } from "./tool-signature.ts";

/** The outcome of matching positional guest arguments to a tool's schema. */
export type ArgumentCheck =
  | { readonly ok: true; readonly args: Record<string, unknown> }
  | { readonly ok: false; readonly message: string };

/**
 * Maps positional arguments to named ones (in the order of `parameters.properties`)
 * and validates them against the tool's schema with {@link validateToolArguments}.
 * Trailing `undefined` slots are dropped.
 */
export function checkToolArguments(tool: Tool, positional: readonly unknown[]): ArgumentCheck {
  const names = Object.keys(tool.parameters.properties);
  if (positional.length > names.length) {
    return { ok: false, message: `${tool.name} takes at most ${names.length} argument${names.length === 1 ? "" : "s"} (${toolSignature(tool)}), got ${positional.length}.` };
  }
  const args: Record<string, unknown> = {};
  positional.forEach((value, index) => {
    if (value !== undefined) args[names[index]!] = value;
  });
  const checked = validateToolArguments(tool, args);
  return checked.ok ? checked : { ok: false, message: checked.message };
}
