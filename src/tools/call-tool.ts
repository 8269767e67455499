import type { JsonValue } from "./json-schema.ts";
import type { Tool, ToolCallContext } from "./tool.ts";
import { truncateJson } from "./truncate-json.ts";

/** What one host tool call came to: its JSON result (cut to size), or a host fault. */
export type ToolCallOutcome =
  | { readonly ok: true; readonly value: JsonValue; readonly chars: number; readonly truncated: boolean }
  | { readonly ok: false; readonly hostError: string };

/**
 * Runs a tool's handler with validated arguments and checks that it returned
 * JSON. A handler that throws, or returns a value JSON cannot carry (a
 * function, a symbol, a bigint, a cycle), is a fault of the host, not of the
 * model's call: the outcome carries the real message for the host, and the
 * session tells the model only that the tool failed. Tools report failures the
 * model should read as returned values (e.g. `{ error: "no user 7" }`).
 */
export async function callTool(tool: Tool, args: Record<string, unknown>, context: ToolCallContext, maxChars: number): Promise<ToolCallOutcome> {
  let value: unknown;
  try {
    value = (await tool.handler(args, context)) ?? null;
  } catch (error) {
    return { ok: false, hostError: `${tool.name} threw: ${describeThrown(error)}` };
  }
  const problem = nonJsonPart(value);
  if (problem) return { ok: false, hostError: `${tool.name} returned a value that is not JSON: ${problem}` };
  try {
    // Serializes the result once: measures it and cuts it to size.
    return { ok: true, ...truncateJson(value as JsonValue, maxChars) };
  } catch (error) {
    return { ok: false, hostError: `${tool.name} returned a value that cannot be serialized: ${describeThrown(error)}` };
  }
}

/** The model's side of a host fault: neutral, and never a hint that its arguments were wrong. */
export function hostFaultFeedback(toolName: string, line: number, source: string): string {
  return `${toolName} at line ${line} (${source}): the tool failed in the host. This is not a problem with your code or its arguments, and the host has been told. Nothing in this block ran; go on without this tool's result.`;
}

/** The model's side of a host fault in a tool-call action (see {@link hostFaultFeedback}). */
export function hostFaultMessage(toolName: string): string {
  return `${toolName} failed in the host. This is not a problem with your call or its arguments, and the host has been told; go on without this result.`;
}

function describeThrown(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  try {
    return String(error);
  } catch {
    return "a value that cannot be shown";
  }
}

/**
 * The first part of `value` that JSON cannot carry, as `result.path is a
 * function`, or `undefined` when it is all JSON. Walks without recursion, so a
 * deep value cannot overflow the stack; `undefined` object fields are fine
 * (JSON leaves them out), as are objects with `toJSON`.
 */
function nonJsonPart(value: unknown): string | undefined {
  // `leave` entries take an object off the path of enclosing values once its fields are done.
  const stack: ({ readonly value: unknown; readonly path: string } | { readonly leave: object })[] = [{ value, path: "result" }];
  const enclosing = new Set<object>();
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if ("leave" in entry) {
      enclosing.delete(entry.leave);
      continue;
    }
    const { value: current, path } = entry;
    if (typeof current === "function") return `${path} is a function`;
    if (typeof current === "symbol") return `${path} is a symbol`;
    if (typeof current === "bigint") return `${path} is a bigint`;
    if (typeof current !== "object" || current === null || typeof (current as { toJSON?: unknown }).toJSON === "function") continue;
    if (enclosing.has(current)) return `${path} refers back to an enclosing value (a cycle)`;
    enclosing.add(current);
    stack.push({ leave: current });
    if (Array.isArray(current)) current.forEach((item, index) => stack.push({ value: item, path: `${path}[${index}]` }));
    else for (const [key, field] of Object.entries(current)) if (field !== undefined) stack.push({ value: field, path: `${path}.${key}` });
  }
  return undefined;
}
