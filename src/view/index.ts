export { escapeHtml } from "./escape-html.ts";
export { parseTrace, readTrace, type ParsedTrace } from "./read-trace.ts";
export { buildSessionTree, type BlockNode, type SessionNode, type TurnNode } from "./session-tree.ts";
export { MAX_SHOWN_CHARS, renderTraceHtml, type RenderTraceOptions } from "./render-trace-html.ts";
