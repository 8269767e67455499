export { createToolCallParser } from "./create-tool-call-parser.ts";
export { parseToolCalls, joinTextEvents } from "./parse-tool-calls.ts";
export type { ToolCallEvent, ToolCallParser, ToolCallParserOptions, ToolCallProtocol } from "./tool-call-event.ts";
export { rewriteToolCall, type RewriteToolCallOptions, type RewriteToolCallResult } from "./rewrite-tool-call.ts";
