/**
 * Renders a JSON value for a person: strings as they are, arrays one item per
 * line, objects as `key: value` lines, nested values indented. Used by
 * `rlmkit nav` when `--json` is not given.
 */
export function formatValue(value: unknown, indent = ""): string {
  if (value === null || value === undefined) return `${indent}${String(value)}`;
  if (typeof value === "string") return value.split("\n").map((line) => `${indent}${line}`).join("\n");
  if (typeof value !== "object") return `${indent}${String(value)}`;
  if (Array.isArray(value)) {
    if (value.length === 0) return `${indent}(none)`;
    return value.map((item) => (isScalar(item) ? `${indent}${scalar(item)}` : isFlat(item) ? `${indent}${flatLine(item as Record<string, unknown>)}` : `${indent}-\n${formatValue(item, `${indent}  `)}`)).join("\n");
  }
  return Object.entries(value as Record<string, unknown>)
    .map(([key, item]) => {
      if (isScalar(item)) return `${indent}${key}: ${scalar(item)}`;
      return `${indent}${key}:\n${formatValue(item, `${indent}  `)}`;
    })
    .join("\n");
}

function isScalar(value: unknown): boolean {
  return value === null || typeof value === "number" || typeof value === "boolean" || (typeof value === "string" && !value.includes("\n"));
}

function scalar(value: unknown): string {
  return value === null ? "null" : String(value);
}

function isFlat(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((item) => isScalar(item) && String(item).length <= 200);
}

function flatLine(record: Record<string, unknown>): string {
  return Object.entries(record)
    .map(([key, item]) => `${key}=${scalar(item)}`)
    .join("  ");
}

/**
 * Renders a nav tool's result for a person: search matches as `path:line:column  text  (symbol)`,
 * references as `path:line:column  text  (call in symbol)`,
 * read results as the source with line numbers, anything else with {@link formatValue}.
 */
export function formatNavResult(tool: string, result: unknown): string {
  const record = typeof result === "object" && result !== null ? (result as Record<string, unknown>) : undefined;
  if ((tool === "nav_search" || tool === "nav_refs") && record && Array.isArray(record.matches)) {
    const matches = record.matches as { path: string; line: number; column: number; text: string; symbol: string | null; kind?: string; reference?: string }[];
    if (matches.length === 0) return "no matches";
    const where = (match: (typeof matches)[number]) => (match.reference ? `  (${match.reference}${match.symbol ? ` in ${match.symbol}` : ""})` : match.symbol ? `  (${match.kind ? `${match.kind} ` : ""}${match.symbol})` : "");
    const lines = matches.map((match) => `${match.path}:${match.line}:${match.column}  ${match.text.trim()}${where(match)}`);
    return `${lines.join("\n")}${record.truncated ? "\n… more matches; raise the limit with '{\"limit\": 200}'" : ""}`;
  }
  if (tool === "nav_read" && record && typeof record.text === "string" && typeof record.startLine === "number") {
    const start = record.startLine;
    const width = String(start + record.text.split("\n").length).length;
    const body = record.text.split("\n").map((line, offset) => `${String(start + offset).padStart(width)}  ${line}`).join("\n");
    const chunks = typeof record.chunks === "number" && record.chunks > 1 ? `  (chunk ${String(record.chunk)} of ${record.chunks}; next with '{"chunk": ${Number(record.chunk) + 1}}')` : "";
    return `${String(record.path)}:${start}-${String(record.endLine)}${chunks}\n${body}`;
  }
  return formatValue(result);
}
