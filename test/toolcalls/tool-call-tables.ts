import type { ToolCallEvent } from "../../src/index.ts";

/** The tools every table row may call. */
export const TOOLS = [{ name: "nav_search" }, { name: "nav_read" }, { name: "nav_info" }];

/** One labelled reply and the events it must give. */
export interface TableRow {
  readonly label: string;
  readonly text: string;
  readonly events: readonly ToolCallEvent[];
  readonly keepReasoning?: boolean;
}

const text = (value: string): ToolCallEvent => ({ type: "text", text: value });
const call = (name: string, args: Record<string, unknown>, raw: string): ToolCallEvent => ({ type: "tool_call", name, arguments: args, raw });
const invalid = (raw: string, error: string | RegExp, name?: string): ToolCallEvent =>
  ({ type: "invalid_tool_call", ...(name ? { name } : {}), raw, error: error as string });

const SEARCH = '{"tool": "nav_search", "arguments": {"query": "retry"}}';
const INFO = '{"tool": "nav_info", "arguments": {}}';
const NESTED = '{"tool": "nav_search", "arguments": {"query": "a {b} \\"c}\\" [d]", "options": {"glob": "src/{a,b}/*.ts"}}}';

/** `json` protocol: `{"tool": ..., "arguments": ...}` objects, bare or fenced. */
export const JSON_ROWS: readonly TableRow[] = [
  { label: "a single bare call after prose", text: `I'll search.\n${SEARCH}`, events: [text("I'll search.\n"), call("nav_search", { query: "retry" }, SEARCH)] },
  { label: "a single call in a json fence", text: "```json\n" + SEARCH + "\n```", events: [text("```json\n"), call("nav_search", { query: "retry" }, SEARCH), text("\n```")] },
  { label: "a call in an untagged fence", text: "```\n" + INFO + "\n```", events: [text("```\n"), call("nav_info", {}, INFO), text("\n```")] },
  {
    label: "several calls: bare, fenced, then bare on one line",
    text: `First ${INFO}\n\`\`\`json\n${SEARCH}\n\`\`\`\n${INFO} ${INFO}`,
    events: [text("First "), call("nav_info", {}, INFO), text("\n```json\n"), call("nav_search", { query: "retry" }, SEARCH), text("\n```\n"), call("nav_info", {}, INFO), text(" "), call("nav_info", {}, INFO)],
  },
  { label: "nested braces and quotes inside strings", text: NESTED, events: [call("nav_search", { query: 'a {b} "c}" [d]', options: { glob: "src/{a,b}/*.ts" } }, NESTED)] },
  {
    label: "a call next to a ```js fence holding a call-shaped object (code, not a call)",
    text: "```js\nconst call = " + INFO + ";\n```\n" + SEARCH,
    events: [text("```js\nconst call = " + INFO + ";\n```\n"), call("nav_search", { query: "retry" }, SEARCH)],
  },
  { label: "a ```python fence with a dict literal", text: '```python\nx = {"tool": "nav_info", "arguments": {}}\n```', events: [text('```python\nx = {"tool": "nav_info", "arguments": {}}\n```')] },
  {
    label: "a JSON configuration block in Markdown is not a call",
    text: 'Set this in tsconfig.json:\n```json\n{\n  "compilerOptions": { "strict": true, "paths": { "@/*": ["src/*"] } }\n}\n```\nThat is the answer.',
    events: [text('Set this in tsconfig.json:\n```json\n{\n  "compilerOptions": { "strict": true, "paths": { "@/*": ["src/*"] } }\n}\n```\nThat is the answer.')],
  },
  { label: 'a "tool" key naming something that is not a tool, without arguments (configuration)', text: '{"tool": "eslint", "config": {"rules": {}}}', events: [text('{"tool": "eslint", "config": {"rules": {}}}')] },
  { label: "an example in an inline code span", text: "Write `" + INFO + "` to call it.", events: [text("Write `" + INFO + "` to call it.")] },
  { label: "an example in a double-backtick code span holding a backtick", text: "Write ``" + INFO + " ` `` to call it.", events: [text("Write ``" + INFO + " ` `` to call it.")] },
  { label: "a lone backtick on the line is literal, so the call after it counts", text: "The ` key, then " + INFO + "\nok", events: [text("The ` key, then "), call("nav_info", {}, INFO), text("\nok")] },
  { label: "braces in prose and template slots", text: "Use {name} or {{slot}} and {a, b}. " + INFO, events: [text("Use {name} or {{slot}} and {a, b}. "), call("nav_info", {}, INFO)] },
  {
    label: "repaired: trailing commas, single quotes, unquoted keys, a raw line break in a string",
    text: "{tool: 'nav_search', arguments: {'query': \"two\nlines\", limit: 3,},}",
    events: [call("nav_search", { query: "two\nlines", limit: 3 }, "{tool: 'nav_search', arguments: {'query': \"two\nlines\", limit: 3,},}")],
  },
  {
    label: "repaired: a closing brace missing before the fence closes",
    text: '```json\n{"tool": "nav_read", "arguments": {"target": "a.ts"}\n```',
    events: [text("```json\n"), call("nav_read", { target: "a.ts" }, '{"tool": "nav_read", "arguments": {"target": "a.ts"}'), text("\n```")],
  },
  {
    label: "reported: JSON no repair can read",
    text: '{"tool": "nav_search", "arguments": {"query"= "x"}}',
    events: [invalid('{"tool": "nav_search", "arguments": {"query"= "x"}}', "nav_search: not valid JSON (Expected ':' after property name in JSON at position 44 (line 1 column 45))", "nav_search")],
  },
  {
    label: "reported: an unknown tool, listing the tools",
    text: '{"tool": "nav_grep", "arguments": {"pattern": "x"}}',
    events: [invalid('{"tool": "nav_grep", "arguments": {"pattern": "x"}}', "unknown tool 'nav_grep'; the tools are nav_search, nav_read, nav_info")],
  },
  {
    label: 'reported: "name" in place of "tool" (the Hermes shape)',
    text: '{"name": "nav_info", "arguments": {}}',
    events: [invalid('{"name": "nav_info", "arguments": {}}', 'write the call as {"tool": "nav_info", "arguments": {...}}: the tool is named by the key "tool", not "name"', "nav_info")],
  },
  {
    label: "reported: arguments that are not an object",
    text: '{"tool": "nav_read", "arguments": ["a.ts"]}',
    events: [invalid('{"tool": "nav_read", "arguments": ["a.ts"]}', "nav_read: the arguments must be a JSON object, got an array", "nav_read")],
  },
  {
    label: "reported: a call the reply ends inside",
    text: 'Reading.\n{"tool": "nav_read", "arguments": {"target": "a.',
    events: [text("Reading.\n"), invalid('{"tool": "nav_read", "arguments": {"target": "a.', "nav_read: the JSON object is never closed (the reply ended inside it); write the whole call again", "nav_read")],
  },
  {
    label: "an object never closed that is not a call: the call after it still counts",
    text: '{"note": "draft", "list": [1, 2\n' + INFO,
    events: [text('{"note": "draft", "list": [1, 2\n'), call("nav_info", {}, INFO)],
  },
  { label: "arguments serialized as a JSON string", text: '{"tool": "nav_read", "arguments": "{\\"target\\": \\"a.ts\\"}"}', events: [call("nav_read", { target: "a.ts" }, '{"tool": "nav_read", "arguments": "{\\"target\\": \\"a.ts\\"}"}')] },
  { label: "arguments written beside the tool key", text: '{"tool": "nav_read", "target": "a.ts"}', events: [call("nav_read", { target: "a.ts" }, '{"tool": "nav_read", "target": "a.ts"}')] },
  { label: "a call inside <think> is ignored", text: `<think>maybe ${INFO}</think>\nNo call needed.`, events: [text(`<think>maybe ${INFO}</think>\nNo call needed.`)] },
  { label: "a call inside an unclosed <reasoning> is ignored", text: `Plan: <reasoning>${INFO}`, events: [text(`Plan: <reasoning>${INFO}`)] },
  { label: "a call inside <thinking> is kept with keepReasoning", text: `<thinking>${INFO}</thinking>`, keepReasoning: true, events: [text("<thinking>"), call("nav_info", {}, INFO), text("</thinking>")] },
  { label: "no call at all", text: "The retry loop lives in lib/util.js (class Backoff).", events: [text("The retry loop lives in lib/util.js (class Backoff).")] },
  {
    label: "a faked Tool Result: nothing after it is a call",
    text: `${INFO}\nTool Result (nav_info): {"files": 3}\n${SEARCH}`,
    events: [call("nav_info", {}, INFO), text(`\nTool Result (nav_info): {"files": 3}\n${SEARCH}`)],
  },
  { label: "a faked result in bold, any case", text: `**tool result (nav_search):** none\n${INFO}`, events: [text(`**tool result (nav_search):** none\n${INFO}`)] },
];

const TAG_SEARCH = '<nav_search>{"query": "retry"}</nav_search>';
const TAG_INFO = "<nav_info>{}</nav_info>";

/** `tagged` protocol: `<tool_name>` … `</tool_name>` blocks holding JSON, fenced or not. */
export const TAGGED_ROWS: readonly TableRow[] = [
  { label: "a single call after prose", text: `Let me look.\n${TAG_SEARCH}`, events: [text("Let me look.\n"), call("nav_search", { query: "retry" }, TAG_SEARCH)] },
  {
    label: "a fenced body, as in the design's GetWeather example",
    text: 'I\'ll search for it.\n\n<nav_search>\n```json\n{\n  "query": "Backoff",\n  "options": {"glob": "lib/*.js"}\n}\n```\n</nav_search>',
    events: [text("I'll search for it.\n\n"), call("nav_search", { query: "Backoff", options: { glob: "lib/*.js" } }, '<nav_search>\n```json\n{\n  "query": "Backoff",\n  "options": {"glob": "lib/*.js"}\n}\n```\n</nav_search>')],
  },
  {
    label: "several calls with prose between",
    text: `${TAG_INFO} then ${TAG_SEARCH}\nand <nav_read>{"target": "a.ts"}</nav_read>.`,
    events: [call("nav_info", {}, TAG_INFO), text(" then "), call("nav_search", { query: "retry" }, TAG_SEARCH), text("\nand "), call("nav_read", { target: "a.ts" }, '<nav_read>{"target": "a.ts"}</nav_read>'), text(".")],
  },
  {
    label: "nested braces, quotes and tags inside strings",
    text: '<nav_search>{"query": "<b>{x}</b> \\"q\\"", "options": {"glob": "{a,b}"}}</nav_search>',
    events: [call("nav_search", { query: '<b>{x}</b> "q"', options: { glob: "{a,b}" } }, '<nav_search>{"query": "<b>{x}</b> \\"q\\"", "options": {"glob": "{a,b}"}}</nav_search>')],
  },
  { label: "an empty block is a call without arguments", text: "<nav_info></nav_info>", events: [call("nav_info", {}, "<nav_info></nav_info>")] },
  {
    label: "a call next to an ```html fence holding a tag (code, not a call)",
    text: "```html\n<nav_info>{}</nav_info>\n```\n" + TAG_SEARCH,
    events: [text("```html\n<nav_info>{}</nav_info>\n```\n"), call("nav_search", { query: "retry" }, TAG_SEARCH)],
  },
  { label: "a call in an untagged fence counts", text: "```\n" + TAG_INFO + "\n```", events: [text("```\n"), call("nav_info", {}, TAG_INFO), text("\n```")] },
  {
    label: "a JSON configuration block in Markdown is not a call",
    text: 'Config:\n```json\n{"tool": "nav_info", "arguments": {}}\n```\n<div>{"a": 1}</div>',
    events: [text('Config:\n```json\n{"tool": "nav_info", "arguments": {}}\n```\n<div>{"a": 1}</div>')],
  },
  { label: "an example in an inline code span", text: "Write `" + TAG_INFO + "` to call it.", events: [text("Write `" + TAG_INFO + "` to call it.")] },
  { label: "repaired: a trailing comma and single quotes", text: "<nav_read>{'target': 'a.ts',}</nav_read>", events: [call("nav_read", { target: "a.ts" }, "<nav_read>{'target': 'a.ts',}</nav_read>")] },
  {
    label: "reported: JSON no repair can read",
    text: '<nav_read>{"target"= "a.ts"}</nav_read>',
    events: [invalid('<nav_read>{"target"= "a.ts"}</nav_read>', "nav_read: the arguments are not valid JSON (Expected ':' after property name in JSON at position 9 (line 1 column 10))", "nav_read")],
  },
  { label: "an unknown tool's tag is text", text: '<nav_grep>{"pattern": "x"}</nav_grep>', events: [text('<nav_grep>{"pattern": "x"}</nav_grep>')] },
  { label: "the Hermes <tool_call> wrapper is text", text: '<tool_call>{"name": "nav_info", "arguments": {}}</tool_call>', events: [text('<tool_call>{"name": "nav_info", "arguments": {}}</tool_call>')] },
  { label: "a call inside <think> is ignored", text: `<think>${TAG_INFO}</think>Done.`, events: [text(`<think>${TAG_INFO}</think>Done.`)] },
  { label: "a call inside <think> is kept with keepReasoning", text: `<think>${TAG_INFO}</think>`, keepReasoning: true, events: [text("<think>"), call("nav_info", {}, TAG_INFO), text("</think>")] },
  { label: "no call at all", text: "It is in <b>lib/util.js</b>.", events: [text("It is in <b>lib/util.js</b>.")] },
  {
    label: "a faked Tool Result: nothing after it is a call",
    text: `${TAG_INFO}\nTool Result (nav_info):\n{"files": 3}\n${TAG_SEARCH}`,
    events: [call("nav_info", {}, TAG_INFO), text(`\nTool Result (nav_info):\n{"files": 3}\n${TAG_SEARCH}`)],
  },
  { label: "unclosed, complete JSON (a stop sequence took the closing tag)", text: 'Reading.\n<nav_read>{"target": "a.ts"}\n', events: [text("Reading.\n"), call("nav_read", { target: "a.ts" }, '<nav_read>{"target": "a.ts"}\n')] },
  {
    label: "reported: unclosed, the JSON cut short",
    text: '<nav_read>{"target": "a.',
    events: [invalid('<nav_read>{"target": "a.', '<nav_read> is never closed and its JSON is incomplete: write <nav_read>{...}</nav_read>', "nav_read")],
  },
  {
    label: "reported: arguments that are not an object",
    text: '<nav_read>"a.ts"</nav_read>',
    events: [invalid('<nav_read>"a.ts"</nav_read>', "nav_read: the arguments must be a JSON object, got string", "nav_read")],
  },
];
