import type { ToolCallEvent, ToolCallParserOptions } from "./tool-call-event.ts";
import { createToolCallParser } from "./create-tool-call-parser.ts";

/**
 * The events of a whole reply: the same as feeding it to {@link createToolCallParser}
 * in any chunks, with adjacent text joined.
 *
 * @example
 * parseToolCalls('Checking.\n{"tool": "nav_info", "arguments": {}}', { protocol: "json", tools: [{ name: "nav_info" }] });
 * // [{ type: "text", text: "Checking.\n" }, { type: "tool_call", name: "nav_info", arguments: {}, raw: '{"tool": "nav_info", "arguments": {}}' }]
 */
export function parseToolCalls(text: string, options: ToolCallParserOptions): ToolCallEvent[] {
  const parser = createToolCallParser(options);
  return joinTextEvents([...parser.push(text), ...parser.end()]);
}

/** Joins adjacent text events (the parser returns text in pieces as it streams). */
export function joinTextEvents(events: readonly ToolCallEvent[]): ToolCallEvent[] {
  const joined: ToolCallEvent[] = [];
  for (const event of events) {
    const last = joined.at(-1);
    if (event.type === "text" && last?.type === "text") joined[joined.length - 1] = { type: "text", text: last.text + event.text };
    else if (event.type !== "text" || event.text !== "") joined.push(event);
  }
  return joined;
}
