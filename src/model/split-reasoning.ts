/** A reply split into what the model said and what it thought. */
export interface SplitReply {
  /** The reply without its reasoning: the only part whose code may run. */
  readonly text: string;
  /** The reasoning taken out of the reply, joined by blank lines; absent when there was none. */
  readonly reasoning?: string;
}

/** The tag names reasoning models wrap their thinking in. */
export const REASONING_TAGS = ["think", "thinking", "reasoning"] as const;

const TAG = new RegExp(`<(/?)(${REASONING_TAGS.join("|")})\\s*>`, "gi");

/**
 * Takes reasoning out of a model reply. Reasoning is any `<think>`, `<thinking>`
 * or `<reasoning>` block (tag names in any case), plus the two shapes servers
 * leave behind when they strip tags:
 *
 * - the reply starts inside reasoning: a closing tag with no opening tag before it
 *   (the chat template already sent `<think>`), so everything up to it is reasoning;
 * - the reply ends inside reasoning: an opening tag that is never closed (the reply
 *   was cut, or the model never stopped thinking), so everything after it is reasoning.
 *
 * Only the first tag may be a lone closing tag; after that, tags pair up, and a
 * stray closing tag later in the reply is left as text. Inside a fenced code block a
 * tag counts only at the start of a line, so code that handles tags as strings
 * (`reply.split("</think>")`) is code, not reasoning.
 *
 * @example
 * splitReasoning("draft FINAL(1)</think>\n```js\nFINAL(2)\n```")
 * // { text: "```js\nFINAL(2)\n```", reasoning: "draft FINAL(1)" }
 */
export function splitReasoning(reply: string): SplitReply {
  const reasoning: string[] = [];
  const visible: string[] = [];
  let cursor = 0;
  let open: { name: string; end: number } | undefined;
  let first = true;
  TAG.lastIndex = 0;
  const fences = fencedRanges(reply);
  for (let match = TAG.exec(reply); match; match = TAG.exec(reply)) {
    if (inCode(reply, match.index, fences)) continue;
    const closing = match[1] === "/";
    const name = match[2].toLowerCase();
    if (open === undefined) {
      if (!closing) {
        visible.push(reply.slice(cursor, match.index));
        open = { name, end: match.index + match[0].length };
      } else if (first) {
        // The opening tag was in the prompt (stripped by the server): the reply started inside reasoning.
        reasoning.push(reply.slice(0, match.index));
        cursor = match.index + match[0].length;
      }
    } else if (closing && name === open.name) {
      reasoning.push(reply.slice(open.end, match.index));
      cursor = match.index + match[0].length;
      open = undefined;
    }
    first = false;
  }
  if (open !== undefined) reasoning.push(reply.slice(open.end));
  else visible.push(reply.slice(cursor));
  const thought = reasoning.map((part) => part.trim()).filter((part) => part.length > 0).join("\n\n");
  const text = visible.join("").trim();
  return thought.length > 0 || reasoning.length > 0 ? { text, ...(thought.length > 0 ? { reasoning: thought } : {}) } : { text: reply };
}

const FENCE = /^ {0,3}(`{3,}|~{3,})([^`]*)$/;

/** The [start, end) character ranges of fenced code blocks (their bodies), by CommonMark's fence rules. */
function fencedRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  let offset = 0;
  let open: { char: string; length: number; start: number } | undefined;
  for (const line of text.split("\n")) {
    const fence = FENCE.exec(line.replace(/\r$/, ""));
    if (open === undefined) {
      if (fence) open = { char: fence[1]![0]!, length: fence[1]!.length, start: offset + line.length + 1 };
    } else if (fence && fence[1]![0] === open.char && fence[1]!.length >= open.length && fence[2]!.trim() === "") {
      ranges.push([open.start, offset]);
      open = undefined;
    }
    offset += line.length + 1;
  }
  if (open !== undefined) ranges.push([open.start, text.length]);
  return ranges;
}

/** True for a position inside a fenced block that is not at the start of its line (only spaces before it). */
function inCode(text: string, index: number, ranges: readonly [number, number][]): boolean {
  if (!ranges.some(([start, end]) => index >= start && index < end)) return false;
  const lineStart = text.lastIndexOf("\n", index - 1) + 1;
  return text.slice(lineStart, index).trim() !== "";
}
