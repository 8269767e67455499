import { describe, expect, test } from "vitest";
import { checkToolArguments, defineTool, validateToolArguments } from "../../src/index.ts";

const search = defineTool({
  name: "search",
  description: "Searches the repository.",
  parameters: {
    type: "object",
    properties: {
      query: { type: "string", minLength: 1 },
      options: {
        type: "object",
        properties: {
          limit: { type: "integer", minimum: 1, maximum: 100 },
          order: { enum: ["asc", "desc"] },
          globs: { type: "array", items: { type: "string" } },
        },
        required: ["order"],
        additionalProperties: false,
      },
    },
    required: ["query"],
    additionalProperties: false,
  },
  handler: () => null,
});

const open = defineTool({
  name: "open",
  description: "A schema that allows extra properties.",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  handler: () => null,
});

describe("validateToolArguments", () => {
  test.each([
    { label: "valid arguments", tool: search, args: { query: "retry", options: { order: "asc", limit: 5, globs: ["*.ts"] } } },
    { label: "only the required ones", tool: search, args: { query: "retry" } },
    { label: "extra properties where the schema allows them", tool: open, args: { path: "a.ts", mode: "r" } },
  ])("accepts $label, unchanged", ({ tool, args }) => {
    const before = structuredClone(args);
    expect(validateToolArguments(tool, args)).toEqual({ ok: true, args: before });
  });

  test.each([
    { label: "a missing required argument", args: {}, errors: [{ path: "query", keyword: "required", message: "missing required argument 'query'" }] },
    { label: "a wrong type", args: { query: 42 }, errors: [{ path: "query", keyword: "type", message: "query must be string" }] },
    { label: "a string too short", args: { query: "" }, errors: [{ path: "query", keyword: "minLength", message: "query must NOT have fewer than 1 characters" }] },
    { label: "a value outside an enum", args: { query: "q", options: { order: "up" } }, errors: [{ path: "options.order", keyword: "enum", message: 'options.order must be one of "asc", "desc"' }] },
    { label: "a number above its maximum", args: { query: "q", options: { order: "asc", limit: 1000 } }, errors: [{ path: "options.limit", keyword: "maximum", message: "options.limit must be <= 100" }] },
    { label: "a non-integer where an integer is required", args: { query: "q", options: { order: "asc", limit: 2.5 } }, errors: [{ path: "options.limit", keyword: "type", message: "options.limit must be integer" }] },
    { label: "a wrong item type in an array", args: { query: "q", options: { order: "asc", globs: ["a", 3] } }, errors: [{ path: "options.globs.1", keyword: "type", message: "options.globs.1 must be string" }] },
    { label: "an unknown top-level argument", args: { query: "q", limt: 3 }, errors: [{ path: "limt", keyword: "additionalProperties", message: "unknown argument 'limt'" }] },
    { label: "an unknown nested option", args: { query: "q", options: { order: "asc", fuzzy: true } }, errors: [{ path: "options.fuzzy", keyword: "additionalProperties", message: "options: unknown option 'fuzzy'" }] },
    { label: "a missing nested field", args: { query: "q", options: {} }, errors: [{ path: "options.order", keyword: "required", message: "options: missing required field 'order'" }] },
    { label: "arguments that are not an object", args: ["q"], errors: [{ path: "", keyword: "type", message: "arguments must be object" }] },
    { label: "null arguments", args: null, errors: [{ path: "", keyword: "type", message: "arguments must be object" }] },
    { label: "a __proto__ key (own property from JSON.parse)", args: JSON.parse('{"query":"q","__proto__":{"x":1}}'), errors: [{ path: "__proto__", keyword: "additionalProperties", message: "unknown argument '__proto__'" }] },
  ])("reports $label as data", ({ args, errors }) => {
    const check = validateToolArguments(search, args);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.errors).toEqual(errors);
    expect(check.message).toBe(`search: ${errors.map((error) => error.message).join("; ")}. Expected search(query: string, options?: {limit?: number, order: "asc" | "desc", globs?: string[]}).`);
  });

  test("reports every error of a call, not just the first", () => {
    const check = validateToolArguments(search, { query: 1, options: { order: "sideways", limit: 0 } });
    expect(check.ok ? [] : check.errors.map((error) => error.keyword).sort()).toEqual(["enum", "minimum", "type"]);
  });
});

describe("checkToolArguments (positional) uses the same validator", () => {
  test.each([
    { label: "valid positional arguments", positional: ["q", { order: "desc" }], expected: { ok: true, args: { query: "q", options: { order: "desc" } } } },
    { label: "trailing undefined slots dropped", positional: ["q", undefined], expected: { ok: true, args: { query: "q" } } },
    { label: "a schema error, worded as for named calls", positional: ["q", { order: "asc", fuzzy: true }], expected: { ok: false, message: 'search: options: unknown option \'fuzzy\'. Expected search(query: string, options?: {limit?: number, order: "asc" | "desc", globs?: string[]}).' } },
    { label: "too many arguments", positional: ["q", {}, 3], expected: { ok: false, message: 'search takes at most 2 arguments (search(query: string, options?: {limit?: number, order: "asc" | "desc", globs?: string[]})), got 3.' } },
  ])("$label", ({ positional, expected }) => {
    expect(checkToolArguments(search, positional)).toEqual(expected);
  });
});
