import type { ToolCallEvent } from "./tool-call-event.ts";
import { isJsonObject, parseJsonText } from "./parse-json-text.ts";
import { deeperThan, MAX_ARGUMENT_DEPTH } from "./argument-depth.ts";

/** How a JSON candidate ended: its braces balanced, its fence closed first, or the reply ended first. */
export type ObjectEnd = "closed" | "fence" | "unclosed";

/** `{"tool": "name"` (quotes optional, as repair accepts) at the start of an object: the object is meant as a call. */
const CALL_START = /^\{\s*(["']?)(tool|name)\1\s*:\s*["']([^"'\n]*)["']/;

/**
 * Reads one JSON object found in a `json`-protocol reply. Returns the call it holds, an
 * invalid call when it is meant as one but cannot run, or `undefined` when it is not a
 * call at all (a configuration block, an example, JSON without a `"tool"` key naming a
 * registered tool) and so stays text.
 */
export function readJsonCall(raw: string, tools: ReadonlySet<string>, end: ObjectEnd): ToolCallEvent | undefined {
  if (end === "unclosed") {
    const start = CALL_START.exec(raw);
    if (!start || (start[2] === "name" && !tools.has(start[3]!))) return undefined;
    const name = tools.has(start[3]!) ? start[3] : undefined;
    return invalid(name, raw, `${name ?? "the call"}: the JSON object is never closed (the reply ended inside it); write the whole call again`);
  }
  const parsed = parseJsonText(raw);
  if (!parsed.ok) {
    const start = CALL_START.exec(raw);
    if (!start || start[2] !== "tool") return undefined;
    const name = tools.has(start[3]!) ? start[3] : undefined;
    return invalid(name, raw, `${name ?? "the call"}: not valid JSON (${parsed.error})`);
  }
  return isJsonObject(parsed.value) ? callFromObject(parsed.value, raw, tools) : undefined;
}

function callFromObject(object: Record<string, unknown>, raw: string, tools: ReadonlySet<string>): ToolCallEvent | undefined {
  const hasArguments = "arguments" in object || "parameters" in object;
  if (typeof object.tool === "string") {
    const name = object.tool;
    if (!tools.has(name)) return hasArguments ? invalid(undefined, raw, `unknown tool '${name}'; the tools are ${[...tools].join(", ") || "none"}`) : undefined;
    return withArguments(name, hasArguments ? (object.arguments ?? object.parameters) : withoutKey(object, "tool"), raw);
  }
  if (typeof object.name === "string" && tools.has(object.name) && hasArguments) {
    return invalid(object.name, raw, `write the call as {"tool": "${object.name}", "arguments": {...}}: the tool is named by the key "tool", not "name"`);
  }
  return undefined;
}

/**
 * Reads the body of a `tagged` block `<name>…</name>`: JSON, bare or in a fence. An empty
 * closed block is a call without arguments. An unclosed block (the reply ended, or a stop
 * sequence took the closing tag) counts only when its body is complete, strict JSON.
 */
export function readTaggedCall(name: string, body: string, raw: string, closed: boolean): ToolCallEvent {
  const json = unfence(body.trim());
  if (json === "") return closed ? { type: "tool_call", name, arguments: {}, raw } : invalid(name, raw, `<${name}> is never closed: write <${name}>{...}</${name}>`);
  const parsed = parseJsonText(json, { repair: closed });
  if (!parsed.ok) {
    return invalid(name, raw, closed ? `${name}: the arguments are not valid JSON (${parsed.error})` : `<${name}> is never closed and its JSON is incomplete: write <${name}>{...}</${name}>`);
  }
  return withArguments(name, parsed.value, raw);
}

function withArguments(name: string, value: unknown, raw: string): ToolCallEvent {
  let args = value ?? {};
  if (typeof args === "string") {
    const inner = parseJsonText(args);
    if (inner.ok && isJsonObject(inner.value)) args = inner.value;
  }
  if (!isJsonObject(args)) return invalid(name, raw, `${name}: the arguments must be a JSON object, got ${Array.isArray(args) ? "an array" : typeof args}`);
  if (deeperThan(args, MAX_ARGUMENT_DEPTH)) return invalid(name, raw, `${name}: the arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels`);
  return { type: "tool_call", name, arguments: args, raw };
}

function withoutKey(object: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = object;
  return rest;
}

const FENCED = /^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n?[ \t]*\1[ \t]*$/;

function unfence(text: string): string {
  const fenced = FENCED.exec(text);
  return fenced ? fenced[2]!.trim() : text;
}

function invalid(name: string | undefined, raw: string, error: string): ToolCallEvent {
  return name === undefined ? { type: "invalid_tool_call", raw, error } : { type: "invalid_tool_call", name, raw, error };
}
