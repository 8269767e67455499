// Reading escapes of JavaScript regular expressions, shared by the line-oriented
// rewrite (line-regex.ts) and the literal extraction (regex-literal.ts).

/** The line feed's code point. */
export const NEWLINE = 10;

/** Why some constructs are refused, for error messages. */
export const UNSUPPORTED_HINT = "nav_search patterns run in linear time, one line at a time, like ripgrep's";

/** An escape as read from a pattern. */
export interface Escape {
  /** The escape as written, e.g. `\s`, `\x41`, `\u{1F600}`. */
  readonly text: string;
  /** The character it stands for, when it stands for one. */
  readonly codePoint?: number;
}

/** Reads the escape at `index` (which holds a backslash). */
export function readEscape(pattern: string, index: number): Escape | { error: string } {
  const next = pattern[index + 1];
  if (next === undefined) return { text: "\\" };
  if (next === "n") return { text: "\\n", codePoint: NEWLINE };
  if (next === "x" && /^[0-9a-fA-F]{2}$/.test(pattern.slice(index + 2, index + 4))) {
    return { text: pattern.slice(index, index + 4), codePoint: Number.parseInt(pattern.slice(index + 2, index + 4), 16) };
  }
  if (next === "u" && /^[0-9a-fA-F]{4}$/.test(pattern.slice(index + 2, index + 6))) {
    return { text: pattern.slice(index, index + 6), codePoint: Number.parseInt(pattern.slice(index + 2, index + 6), 16) };
  }
  if (next === "c" && /^[a-zA-Z]$/.test(pattern[index + 2] ?? "")) {
    return { text: pattern.slice(index, index + 3), codePoint: pattern.charCodeAt(index + 2) % 32 };
  }
  // What ripgrep reads as a class or an anchor, and a pattern here would take as a plain letter.
  if ((next === "x" || next === "u") && pattern[index + 2] === "{") {
    return { error: `\\${next}{…} escapes are not supported: write the character itself, or \\xHH or \\uHHHH` };
  }
  if (next === "p" || next === "P") {
    return { error: `Unicode property classes (\\${next}{…}) are not supported: ${UNSUPPORTED_HINT}; spell the characters in a class ([A-Za-zÀ-ÿ]) or use \\w` };
  }
  if (next === "A" || next === "z" || next === "Z") {
    return { error: `\\${next} (the ${next === "A" ? "start" : "end"} of the text) is not supported: each line is matched alone, so use ${next === "A" ? "^" : "$"}` };
  }
  if (/[1-9]/.test(next) || (next === "k" && pattern[index + 2] === "<")) {
    return { error: `backreferences (${next === "k" ? "\\k<name>" : `\\${next}`}) are not supported: ${UNSUPPORTED_HINT}` };
  }
  if (next === "0" && /[0-7]/.test(pattern[index + 2] ?? "")) {
    const octal = /^[0-7]{1,3}/.exec(pattern.slice(index + 1))?.[0] ?? "0";
    return { text: `\\${octal}`, codePoint: Number.parseInt(octal, 8) };
  }
  // `\c` without a letter after it stands for no one character: a backslash, then `c` (Annex B).
  if (next === "c") return { text: "\\c" };
  const control = CONTROL_ESCAPES[next];
  return { text: pattern.slice(index, index + 2), codePoint: control ?? next.codePointAt(0) };
}

const CONTROL_ESCAPES: Record<string, number> = { t: 9, r: 13, f: 12, v: 11, "0": 0 };


/** True for the escapes that stand for a class of characters or a boundary (`\\d`, `\\w`, `\\s`, `\\b` and their negations). */
export function isClassEscape(text: string): boolean {
  return /^\\[dDwWsSbB]$/.test(text);
}
