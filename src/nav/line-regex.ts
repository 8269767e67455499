// Line-oriented regular expressions, as ripgrep matches them: a pattern never
// matches across a line break.
import { isClassEscape, NEWLINE, readEscape, UNSUPPORTED_HINT } from "./regex-escape.ts";
import { longestRun, MIN_LITERAL, requiredAlternatives, requiredRuns } from "./regex-literal.ts";

/** A pattern rewritten so that no part of it can match `\n`, ready for `new RegExp(source, flags)`. */
export interface LineRegex {
  readonly source: string;
  /** `gm`, plus `i` when the search ignores case. */
  readonly flags: string;
  /**
   * The same pattern with ASCII letters spelled in both cases (`a` as `[aA]`), for
   * V8's linear-time engine, which has no `i` flag; equal to `source` when case matters.
   */
  readonly foldedSource: string;
  /**
   * True when a repeated group holds a repetition or an alternation (`(a+)+`,
   * `(a|ab)*`): the shapes that backtrack exponentially, run on the linear engine from the start.
   */
  readonly nestedRepetition: boolean;
  /**
   * A run of plain characters every match must contain (see `requiredLiteral`), when
   * there is one of at least three characters: a searcher finds it first and runs the
   * pattern only on the lines that hold it, as ripgrep does with a pattern's literals.
   */
  readonly literal?: string;
  /**
   * Every run of at least three plain characters every match must contain (see {@link requiredRuns}),
   * `literal` among them: a line that lacks one cannot match.
   */
  readonly literals: readonly string[];
  /**
   * The alternatives of each group every match goes through (see {@link requiredAlternatives}): a line that holds none
   * of a group's cannot match (`os` or `sys` for `import\s+(os|sys)\b`).
   */
  readonly alternatives: readonly (readonly string[])[];
}

// What \s, \W and \D match (JavaScript's definitions) with the line feed taken out, for use inside [...].
const SPACE_NO_NEWLINE = "\\t\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";
const NON_WORD_NO_NEWLINE = "\\x00-\\t\\x0b-\\/:-@\\[-\\^`\\{-\\uffff";
const NON_DIGIT_NO_NEWLINE = "\\x00-\\t\\x0b-\\/:-\\uffff";

/**
 * Rewrites a JavaScript regular expression so that it matches within one line,
 * as ripgrep does: `\s`, `\W`, `\D`, negated classes and ranges stop matching
 * the line feed; a pattern that names a line break itself, and the constructs
 * a linear-time engine cannot run (backreferences, lookaround), are refused
 * with a message saying so. Syntax errors are left to `new RegExp`.
 *
 * @example
 * lineRegex("^\\s*class\\s+\\w+Error\\b", true)
 * // { source: "^[^\\S\\n]*class[^\\S\\n]+\\w+Error\\b", flags: "gm" }
 */
export function lineRegex(pattern: string, caseSensitive: boolean): LineRegex | { readonly error: string } {
  // A search asks several times (to check it, to place it, to find its literal): each pattern is read once.
  const key = `${caseSensitive ? "s" : "i"}${pattern}`;
  let known = recent.get(key);
  if (!known) {
    // Frozen: every caller of a pattern shares the one object.
    known = Object.freeze(readLineRegex(pattern, caseSensitive));
    if (recent.size >= RECENT_PATTERNS) recent.delete(recent.keys().next().value!);
    recent.set(key, known);
  }
  return known;
}

/**
 * The text every line a search matches holds: a literal query itself, or a pattern's required
 * literal (see {@link LineRegex.literal}); `undefined` for a pattern without one or that is not
 * valid, and with `backtracking`, for one that runs on the linear-time engine (see {@link LineRegex.nestedRepetition}).
 */
export function searchLiteral(request: { readonly regex: boolean; readonly query: string; readonly caseSensitive: boolean }, backtracking = false): string | undefined {
  if (!request.regex) return request.query;
  const pattern = lineRegex(request.query, request.caseSensitive);
  return "error" in pattern || (backtracking && pattern.nestedRepetition) ? undefined : pattern.literal;
}

/**
 * Every text each line a search matches holds: a literal query itself, or every required literal of
 * a pattern (see {@link LineRegex.literals}); none for a pattern that is not valid.
 */
export function searchLiterals(request: { readonly regex: boolean; readonly query: string; readonly caseSensitive: boolean }): readonly string[] {
  if (!request.regex) return [request.query];
  const pattern = lineRegex(request.query, request.caseSensitive);
  return "error" in pattern ? [] : pattern.literals;
}

/** The alternatives every line a search's pattern matches holds one of, per group (see {@link LineRegex.alternatives}); none for a literal. */
export function searchAlternatives(request: { readonly regex: boolean; readonly query: string; readonly caseSensitive: boolean }): readonly (readonly string[])[] {
  if (!request.regex) return [];
  const pattern = lineRegex(request.query, request.caseSensitive);
  return "error" in pattern ? [] : pattern.alternatives;
}

// The patterns read last, with what they read as (the objects are never changed).
const RECENT_PATTERNS = 32;
const recent = new Map<string, LineRegex | { readonly error: string }>();

function readLineRegex(pattern: string, caseSensitive: boolean): LineRegex | { readonly error: string } {
  let out = "";
  let folded = "";
  let index = 0;
  while (index < pattern.length) {
    const char = pattern[index];
    if (char === "\\") {
      const escape = readEscape(pattern, index);
      if ("error" in escape) return escape;
      if (escape.codePoint === NEWLINE) return newlineError(escape.text);
      const text = escape.text === "\\s" ? "[^\\S\\n]" : escape.text === "\\W" ? "[^\\w\\n]" : escape.text === "\\D" ? "[^\\d\\n]" : escape.text;
      out += text;
      folded += isClassEscape(escape.text) ? text : foldChar(text, escape.codePoint);
      index += escape.text.length;
    } else if (char === "[") {
      const klass = readClass(pattern, index);
      if ("error" in klass) return klass;
      out += klass.text;
      folded += klass.folded;
      index = klass.end;
    } else if (char === "(" && pattern[index + 1] === "?" && pattern[index + 2] === "<" && /[A-Za-z_$]/.test(pattern[index + 3] ?? "")) {
      // A named group: its name is copied as written.
      const close = pattern.indexOf(">", index);
      const group = close === -1 ? pattern.slice(index) : pattern.slice(index, close + 1);
      out += group;
      folded += group;
      index += group.length;
    } else if (char === "(" && pattern[index + 1] === "?" && /[A-Za-z-]/.test(pattern[index + 2] ?? "")) {
      // Flags inside a pattern: `(?i)`, or a group's own, `(?i:…)`, which JavaScript reads too, but which neither the
      // rewrite that keeps a pattern within a line (`(?s:.)`) nor the linear-time engine can take. And Python's `(?P<name>…)`.
      const shown = pattern[index + 2] === "P" ? "(?P<name>…)" : /^\(\?[A-Za-z-]*[:)]/.exec(pattern.slice(index))?.[0].replace(/:$/, ":…)") ?? pattern.slice(index, index + 3);
      return { error: `${shown} is not supported: ${UNSUPPORTED_HINT}; flags inside a pattern are not, so ask for case with the caseSensitive option, and name a group as (?<name>…)` };
    } else if (char === "(" && pattern[index + 1] === "?" && (pattern[index + 2] === "=" || pattern[index + 2] === "!" || (pattern[index + 2] === "<" && (pattern[index + 3] === "=" || pattern[index + 3] === "!")))) {
      return { error: `lookaround such as ${pattern.slice(index, index + (pattern[index + 2] === "<" ? 4 : 3))}...) is not supported: ${UNSUPPORTED_HINT}; match the surrounding text instead` };
    } else if (char === "\n") {
      return newlineError("a line break");
    } else {
      out += char;
      folded += foldChar(char, char.codePointAt(0));
      index++;
    }
  }
  const nestedRepetition = hasNestedRepetition(out);
  // The pattern's runs, read once: the longest is `literal` (see requiredLiteral), those long enough are `literals`.
  const read = requiredRuns(pattern);
  const runs = read ?? [];
  const literal = longestRun(runs);
  const literals = Object.freeze(runs.filter((run) => run.length >= MIN_LITERAL));
  const found = literal !== undefined && literal.length >= MIN_LITERAL ? { literal, literals } : { literals: [] };
  const alternatives = Object.freeze(requiredAlternatives(pattern, read ?? null).map((group) => Object.freeze(group)));
  return caseSensitive
    ? { source: out, flags: "gm", foldedSource: out, nestedRepetition, ...found, alternatives }
    : { source: out, flags: "gim", foldedSource: folded, nestedRepetition, ...found, alternatives };
}

// Looks for a group that holds `*`, `+`, `{n,}`, `{n,m}` or `|` and is itself repeated.
function hasNestedRepetition(source: string): boolean {
  const groups: boolean[] = [];
  let index = 0;
  const repeatAt = (at: number) => source[at] === "*" || source[at] === "+" || (source[at] === "{" && /^\{\d*,\d*\}|^\{\d+\}/.test(source.slice(at)) && !/^\{[01]\}|^\{0?,1\}/.test(source.slice(at)));
  while (index < source.length) {
    const char = source[index];
    if (char === "\\") {
      index += 2;
      continue;
    }
    if (char === "[") {
      index++;
      while (index < source.length && source[index] !== "]") index += source[index] === "\\" ? 2 : 1;
      index++;
      continue;
    }
    if (char === "(") groups.push(false);
    else if (char === "|" && groups.length > 0) groups[groups.length - 1] = true;
    else if (char === ")") {
      const inner = groups.pop() ?? false;
      if (inner && repeatAt(index + 1)) return true;
      if (inner && groups.length > 0) groups[groups.length - 1] = true;
    } else if (repeatAt(index) && groups.length > 0) groups[groups.length - 1] = true;
    index++;
  }
  return false;
}


// A character as a class of every character the `i` flag takes as the same (see caseMates); anything else as written.
function foldChar(text: string, codePoint: number | undefined): string {
  if (codePoint === undefined) return text;
  const mates = caseMates(codePoint);
  return mates.length === 0 ? text : `[${text}${mates.map(classChar).join("")}]`;
}

// The characters the `i` flag takes as the same as one in [lower, upper] and that are not in it, for a class.
function otherCase(lower: number, upper: number): string {
  let extra = "";
  const add = (from: number, to: number, shift: number) => {
    const start = Math.max(lower, from);
    const end = Math.min(upper, to);
    if (start <= end) extra += `${String.fromCharCode(start + shift)}-${String.fromCharCode(end + shift)}`;
  };
  add(0x61, 0x7a, -0x20);
  add(0x41, 0x5a, 0x20);
  // Beyond ASCII, one by one (a class's range there is short, or spans only the few letters there are).
  for (let unit = Math.max(lower, 0x80); unit <= Math.min(upper, 0xffff); unit++) {
    for (const mate of caseMates(unit)) if (mate < lower || mate > upper) extra += classChar(mate);
  }
  return extra;
}

// A code unit as written in a class.
function classChar(unit: number): string {
  return `\\u${unit.toString(16).padStart(4, "0")}`;
}

/**
 * The other characters that a pattern with the `i` flag (and no `u`) matches for `unit`: those with the
 * same canonical form (ECMAScript's Canonicalize: the character's upper case when that is one code unit,
 * and not ASCII for a character beyond it). Found once for all code units, on first need beyond ASCII.
 */
function caseMates(unit: number): readonly number[] {
  if (unit < 0x80) {
    const lower = unit | 0x20;
    return lower >= 0x61 && lower <= 0x7a ? [unit ^ 0x20] : [];
  }
  if (unit > 0xffff) return [];
  mateClasses ??= findMateClasses();
  return (mateClasses.get(unit) ?? []).filter((mate) => mate !== unit);
}

let mateClasses: Map<number, readonly number[]> | undefined;

// The characters beyond ASCII whose case can change (the only ones with a mate), found by one regex run over
// every code unit rather than a case mapping of each (10 ms, not 70); grouped by canonical form.
function findMateClasses(): Map<number, readonly number[]> {
  const units = new Uint16Array(0x10000 - 0x80 - 0x800);
  for (let unit = 0x80, at = 0; unit <= 0xffff; unit++) if (unit < 0xd800 || unit > 0xdfff) units[at++] = unit;
  const text = new TextDecoder("utf-16le").decode(units);
  const groups = new Map<number, Set<number>>();
  const join = (canonical: number, unit: number) => {
    let group = groups.get(canonical);
    if (!group) groups.set(canonical, (group = new Set()));
    group.add(unit);
  };
  for (const match of text.matchAll(/[\p{Changes_When_Uppercased}\p{Changes_When_Lowercased}]/gu)) {
    const unit = match[0].charCodeAt(0);
    const canonical = canonicalize(unit);
    join(canonical, unit);
    // The canonical form is its own mate too (whether or not its own case can change).
    if (canonical !== unit && canonicalize(canonical) === canonical) join(canonical, canonical);
  }
  const classes = new Map<number, readonly number[]>();
  for (const group of groups.values()) if (group.size > 1) for (const member of group) classes.set(member, [...group]);
  return classes;
}

function canonicalize(unit: number): number {
  const upper = String.fromCharCode(unit).toUpperCase();
  if (upper.length !== 1) return unit;
  const canonical = upper.charCodeAt(0);
  return unit >= 0x80 && canonical < 0x80 ? unit : canonical;
}

function newlineError(what: string): { error: string } {
  return { error: `the pattern names a line break (${what}); nav_search matches one line at a time, like ripgrep: search for each line's part separately` };
}

// Reads a character class from `index` (which holds `[`) and rewrites it so it never matches `\n`.
function readClass(pattern: string, index: number): { text: string; folded: string; end: number } | { error: string } {
  let position = index + 1;
  const negated = pattern[position] === "^";
  if (negated) position++;
  let body = "";
  // The other-case letters of the class's letters and ranges, added to the folded form.
  let extra = "";
  // The previous single character, when a `-` may follow it to make a range.
  let previous: { text: string; codePoint: number } | undefined;
  while (position < pattern.length && pattern[position] !== "]") {
    let atom: { text: string; codePoint?: number };
    if (pattern[position] === "[" && /^\[:\^?[a-z]+:\]/.test(pattern.slice(position))) {
      return { error: `POSIX classes such as ${/^\[:\^?[a-z]+:\]/.exec(pattern.slice(position))![0]} are not supported: ${UNSUPPORTED_HINT}; spell the class ([A-Za-z], [0-9]) or use \\w, \\d, \\s` };
    }
    if (pattern[position] === "\\") {
      const escape = readEscape(pattern, position);
      if ("error" in escape) return escape;
      // Inside a class \b is a backspace (and digits are octal escapes, not backreferences).
      atom = escape.text === "\\b" ? { text: escape.text, codePoint: 8 } : escape;
    } else {
      atom = { text: pattern[position], codePoint: pattern.codePointAt(position) };
    }
    position += atom.text.length;
    if (atom.text === "-" && previous && pattern[position] !== "]" && position < pattern.length) {
      const upper = pattern[position] === "\\" ? readEscape(pattern, position) : { text: pattern[position], codePoint: pattern.codePointAt(position) };
      if ("error" in upper) return upper;
      position += upper.text.length;
      if (upper.codePoint !== undefined) {
        body = body.slice(0, body.length - previous.text.length) + splitRange(previous, upper as { text: string; codePoint: number }, negated);
        extra += otherCase(previous.codePoint, upper.codePoint);
        previous = undefined;
        continue;
      }
      body += atom.text + upper.text;
      previous = undefined;
      continue;
    }
    if (!negated && atom.codePoint === NEWLINE) {
      previous = undefined;
      continue;
    }
    if (!negated && atom.text === "\\s") body += SPACE_NO_NEWLINE;
    else if (!negated && atom.text === "\\W") body += NON_WORD_NO_NEWLINE;
    else if (!negated && atom.text === "\\D") body += NON_DIGIT_NO_NEWLINE;
    else body += atom.text;
    const single = atom.codePoint !== undefined && !/^\\[dDwWsS]$/.test(atom.text);
    if (single) extra += otherCase(atom.codePoint!, atom.codePoint!);
    previous = single ? { text: atom.text, codePoint: atom.codePoint! } : undefined;
  }
  if (position >= pattern.length) return { text: pattern.slice(index), folded: pattern.slice(index), end: pattern.length };
  const end = position + 1;
  if (negated) return { text: `[^${body}\\n]`, folded: `[^${body}${extra}\\n]`, end };
  // A class left empty by taking out the line feed matches nothing, as `[]` does.
  return { text: `[${body}]`, folded: `[${body}${extra}]`, end };
}

// A range as written, or, in a class that is not negated, split around the line feed.
function splitRange(lower: { text: string; codePoint: number }, upper: { text: string; codePoint: number }, negated: boolean): string {
  if (negated || lower.codePoint > NEWLINE || upper.codePoint < NEWLINE) return `${lower.text}-${upper.text}`;
  const parts: string[] = [];
  if (lower.codePoint < NEWLINE) parts.push(`${lower.text}-\\t`);
  if (upper.codePoint > NEWLINE) parts.push(`\\x0b-${upper.text}`);
  return parts.join("");
}
