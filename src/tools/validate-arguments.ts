import { createRequire } from "node:module";
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import type { Tool } from "./tool.ts";
import { toolSignature } from "./tool-signature.ts";

// Loaded on the first validation: Ajv is 63 modules, which code that only declares tools (the navigation tools) need not load.
let ajv: Ajv | undefined;
const validators = new WeakMap<object, ValidateFunction>();

function validator(): Ajv {
  if (!ajv) {
    const { Ajv: AjvClass } = createRequire(import.meta.url)("ajv") as typeof import("ajv");
    ajv = new AjvClass({ allErrors: true, strict: false, useDefaults: false });
  }
  return ajv;
}

/** One way a call's arguments break the tool's schema. */
export interface ArgumentError {
  /** Where, as a dotted path from the arguments object (`options.limit`; `""` for the object itself). */
  readonly path: string;
  /** What is wrong, in words the model can act on, e.g. `missing required argument 'path'`. */
  readonly message: string;
  /** The JSON Schema keyword that failed (`required`, `type`, `enum`, `maximum`, `additionalProperties`, ...). */
  readonly keyword: string;
}

/** The outcome of checking named arguments against a tool's schema; errors are data, never thrown. */
export type ArgumentValidation =
  | { readonly ok: true; readonly args: Record<string, unknown> }
  | {
      readonly ok: false;
      readonly errors: readonly ArgumentError[];
      /** The errors in one line, naming the tool and its signature. */
      readonly message: string;
    };

/**
 * Validates named arguments (a JSON object, as a model writes them in a tool call)
 * against the tool's JSON Schema: required fields, types, enums, ranges, and unknown
 * properties where the schema forbids them. Every error is reported, not just the first;
 * the arguments are never changed (no defaults, no coercion).
 *
 * @example
 * const check = validateToolArguments(navRead, { target: 7 });
 * // { ok: false, errors: [{ path: "target", keyword: "type", message: "target must be string" }],
 * //   message: "nav_read: target must be string. Expected nav_read(target: string, options?: {...})." }
 */
export function validateToolArguments(tool: Tool, args: unknown): ArgumentValidation {
  let validate = validators.get(tool.parameters);
  if (!validate) {
    validate = validator().compile(tool.parameters);
    validators.set(tool.parameters, validate);
  }
  if (validate(args)) return { ok: true, args: args as Record<string, unknown> };
  const errors = uniqueErrors((validate.errors ?? []).map(describeError));
  return { ok: false, errors, message: `${tool.name}: ${errors.map((error) => error.message).join("; ")}. Expected ${toolSignature(tool)}.` };
}

function describeError(error: ErrorObject): ArgumentError {
  const path = error.instancePath.slice(1).split("/").map(unescapePointer).join(".");
  const where = path === "" ? "arguments" : path;
  const join = (name: string): string => (path === "" ? name : `${path}.${name}`);
  if (error.keyword === "required") {
    const missing = String(error.params.missingProperty);
    return { path: join(missing), keyword: "required", message: path === "" ? `missing required argument '${missing}'` : `${path}: missing required field '${missing}'` };
  }
  if (error.keyword === "additionalProperties") {
    const extra = String(error.params.additionalProperty);
    return { path: join(extra), keyword: "additionalProperties", message: path === "" ? `unknown argument '${extra}'` : `${path}: unknown option '${extra}'` };
  }
  if (error.keyword === "enum") {
    const allowed = (error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(", ");
    return { path, keyword: "enum", message: `${where} must be one of ${allowed}` };
  }
  return { path, keyword: error.keyword, message: `${where} ${error.message ?? "is invalid"}` };
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

function uniqueErrors(errors: readonly ArgumentError[]): ArgumentError[] {
  const seen = new Set<string>();
  return errors.filter((error) => (seen.has(error.message) ? false : (seen.add(error.message), true)));
}
