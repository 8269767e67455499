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
 * stray closing tag later in the reply is left as text.
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
  for (let match = TAG.exec(reply); match; match = TAG.exec(reply)) {
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
