import type { JsonValue } from "../tools/json-schema.ts";

/** How every description of a session without `context` starts (older traces and newer ones alike). */
export const NO_CONTEXT_PREFIX = "There is no `context` variable in this session";

/** What a session has besides `context`, so the description of a session without it mentions only what exists. */
export interface SessionInputs {
  /** Whether a repository is open (the nav tools are registered). */
  readonly repo?: boolean;
  /** Whether any other tools are registered. */
  readonly tools?: boolean;
}

/**
 * How the system prompt (and the trace's `session_start`) describes a session without `context`:
 * it points at the repository or the tools only when the session has them.
 */
export function describeNoContext({ repo = false, tools = false }: SessionInputs = {}): string {
  if (repo) return `${NO_CONTEXT_PREFIX}; explore the repository with the tools below to find what you need.`;
  if (tools) return `${NO_CONTEXT_PREFIX}; use the tools below to find what you need.`;
  return `${NO_CONTEXT_PREFIX}; answer from the question itself, computing what you need in code.`;
}

/** Whether a recorded `session_start` description says the session had no `context` (any version of the text). */
export function describesNoContext(description: string): boolean {
  return description.startsWith(NO_CONTEXT_PREFIX);
}

/** A short description of the `context` variable for the system prompt: its type, size and a peek. */
export function describeContext(context: JsonValue | undefined, inputs: SessionInputs = {}): string {
  if (context === undefined) return describeNoContext(inputs);
  if (typeof context === "string") {
    const lines = context.length === 0 ? 0 : countLines(context);
    const peek = context.slice(0, 300).replace(/```/g, "'''");
    return `\`context\` is a string of ${context.length.toLocaleString("en-US")} characters (${lines.toLocaleString("en-US")} lines). It starts:\n\`\`\`text\n${peek}${context.length > 300 ? "\n…" : ""}\n\`\`\``;
  }
  if (Array.isArray(context)) {
    const chars = JSON.stringify(context).length;
    return `\`context\` is an array of ${context.length.toLocaleString("en-US")} items (${chars.toLocaleString("en-US")} characters as JSON). The first item is ${kind(context[0])}.`;
  }
  if (context !== null && typeof context === "object") {
    const keys = Object.keys(context);
    const chars = JSON.stringify(context).length;
    const shown = keys.slice(0, 20).map((key) => `\`${key}\` (${kind(context[key])})`).join(", ");
    return `\`context\` is an object with ${keys.length} keys (${chars.toLocaleString("en-US")} characters as JSON): ${shown}${keys.length > 20 ? ", …" : ""}.`;
  }
  return `\`context\` is ${kind(context)}: ${JSON.stringify(context)}.`;
}

function kind(value: JsonValue | undefined): string {
  if (value === undefined) return "absent";
  if (value === null) return "null";
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === "string") return `a string of ${value.length} characters`;
  if (typeof value === "object") return `an object with ${Object.keys(value).length} keys`;
  return `a ${typeof value}`;
}

/** Lines as `text.split("\n").length` counts them, without making the array (a 200 MB context has millions). */
function countLines(text: string): number {
  let lines = 1;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++;
  return lines;
}
