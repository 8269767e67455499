/**
 * Decisions the streaming parser makes by looking ahead from one position. Each returns
 * `"wait"` only when the text ends before the decision can be made and more may come;
 * given the same text from that position on, each decides the same way however the text
 * was split into chunks.
 */
export type Ahead<T> = T | "no" | "wait";

/** A fence opening or closing line: its length including the line break. */
export interface FenceLine {
  readonly length: number;
  readonly char: string;
  readonly run: number;
  /** The first word of the info string, lower-cased (`json`, `js`, ``). */
  readonly language: string;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})([^\n]*)$/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const FENCE_HEAD = / {0,3}(`*|~*)[ \t]*/y;

function line(text: string, at: number, final: boolean, from: number): { body: string; length: number } | "wait" {
  const end = text.indexOf("\n", from);
  if (end === -1) return final ? { body: text.slice(at).replace(/\r$/, ""), length: text.length - at } : "wait";
  return { body: text.slice(at, end).replace(/\r$/, ""), length: end + 1 - at };
}

/** True when the line at `at` cannot be a fence line: its first character after up to three spaces is no backtick or tilde. */
function plainLine(text: string, at: number): boolean {
  let index = at;
  while (index < at + 3 && text.charCodeAt(index) === 32) index++;
  const code = text.charCodeAt(index);
  return index < text.length && code !== 96 && code !== 126 && code !== 32;
}

/** A CommonMark fence opening line at `at` (a line start); `from`: where to look for its end (no line break before it). */
export function fenceOpen(text: string, at: number, final: boolean, from = at): Ahead<FenceLine> {
  if (plainLine(text, at)) return "no";
  const whole = line(text, at, final, from);
  if (whole === "wait") return couldBeFence(text, at, true) ? "wait" : "no";
  const open = FENCE_OPEN.exec(whole.body);
  if (!open || (open[1]![0] === "`" && open[2]!.includes("`"))) return "no";
  return { length: whole.length, char: open[1]![0]!, run: open[1]!.length, language: (open[2]!.trim().split(/\s+/)[0] ?? "").toLowerCase() };
}

/** A line at `at` that closes a fence opened with `run` × `char`; `from`: where to look for its end. */
export function fenceClose(text: string, at: number, final: boolean, char: string, run: number, from = at): Ahead<number> {
  if (plainLine(text, at)) return "no";
  const whole = line(text, at, final, from);
  if (whole === "wait") return couldBeFence(text, at, false) ? "wait" : "no";
  const close = FENCE_CLOSE.exec(whole.body);
  return close && close[1]![0] === char && close[1]!.length >= run ? whole.length : "no";
}

/**
 * Whether the unfinished line at `at` may still be a fence line: only spaces, a run of
 * backticks or tildes and blanks so far — or, for an opening line, a run of three or
 * more followed by an info string. Reads only the line's start, however long it is.
 */
function couldBeFence(text: string, at: number, opening: boolean): boolean {
  FENCE_HEAD.lastIndex = at;
  const head = FENCE_HEAD.exec(text)!;
  return at + head[0].length === text.length || (opening && head[1]!.length >= 3);
}

const REASONING_TAG = /^<(\/?)(think|thinking|reasoning)\s*>/i;
const REASONING_NAMES = ["think", "thinking", "reasoning"];

/** `<think>`, `</thinking>`, `<reasoning >` … at `at`. */
export function reasoningTag(text: string, at: number, final: boolean): Ahead<{ closing: boolean; name: string; length: number }> {
  const slice = text.slice(at, at + 24);
  const tag = REASONING_TAG.exec(slice);
  if (tag) return { closing: tag[1] === "/", name: tag[2]!.toLowerCase(), length: tag[0].length };
  if (final || at + slice.length < text.length) return "no";
  const partial = /^<\/?([a-z]*)(\s*)$/i.exec(slice);
  if (!partial) return "no";
  const name = partial[1]!.toLowerCase();
  const possible = partial[2] === "" ? REASONING_NAMES.some((known) => known.startsWith(name)) : REASONING_NAMES.includes(name);
  return possible ? "wait" : "no";
}

/** `<name>` at `at`, for a registered tool name. */
export function toolTag(text: string, at: number, final: boolean, tools: ReadonlySet<string>, longest: number): Ahead<{ name: string; length: number }> {
  const slice = text.slice(at, at + longest + 2);
  const tag = /^<([A-Za-z_$][\w$]*)>/.exec(slice);
  if (tag) return tools.has(tag[1]!) ? { name: tag[1]!, length: tag[0].length } : "no";
  if (final || at + slice.length < text.length) return "no";
  const partial = /^<([A-Za-z_$][\w$]*)?$/.exec(slice);
  if (!partial) return "no";
  const name = partial[1] ?? "";
  for (const known of tools) if (known.startsWith(name)) return "wait";
  return "no";
}

const OBJECT_START = /^\{\s{0,200}(?:"[^"\\\n]{0,64}"|'[^'\\\n]{0,64}'|[A-Za-z_$][\w$]{0,63})\s{0,200}:/;
const OBJECT_PARTIAL = /^\{\s{0,200}(?:"[^"\\\n]{0,64}"?|'[^'\\\n]{0,64}'?|[A-Za-z_$][\w$]{0,63})?\s{0,200}$/;
const OBJECT_LOOKAHEAD = 480;

/** A `{` that starts something shaped like a JSON object (a key and a colon follow), not a brace in prose. */
export function objectStart(text: string, at: number, final: boolean): Ahead<true> {
  const slice = text.slice(at, at + OBJECT_LOOKAHEAD);
  if (OBJECT_START.test(slice)) return true;
  if (final || at + slice.length < text.length) return "no";
  return OBJECT_PARTIAL.test(slice) ? "wait" : "no";
}

/** An inline code span opened by the backtick run at `at`: where it ends, or the run's length when it is a literal run. `from`: where to go on looking for its end. */
export function codeSpan(text: string, at: number, final: boolean, from = at): Ahead<{ end: number } | { literal: number }> {
  let run = 0;
  while (text[at + run] === "`") run++;
  if (at + run === text.length && !final) return "wait";
  const closing = /`+|\n/g;
  closing.lastIndex = Math.max(at + run, from);
  for (let found = closing.exec(text); found; found = closing.exec(text)) {
    if (found[0] === "\n") return { literal: run };
    if (found[0].length !== run) continue;
    if (found.index + run === text.length && !final) return "wait";
    return { end: found.index + run };
  }
  return final ? { literal: run } : "wait";
}

const MARKER = "tool result (";

/** How many characters at the end of `text` could still become `Tool Result (`. */
export function partialMarker(text: string): number {
  const tail = text.slice(-(MARKER.length - 1)).toLowerCase();
  for (let length = tail.length; length > 0; length--) {
    if (MARKER.startsWith(tail.slice(tail.length - length))) return length;
  }
  return 0;
}

/** How many backticks the text ends with (a run that may still grow). */
export function trailingRun(text: string): number {
  let run = 0;
  while (run < text.length && text.charCodeAt(text.length - 1 - run) === 96) run++;
  return run;
}
