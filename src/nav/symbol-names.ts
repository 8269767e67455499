import path from "node:path";
import { detectLanguage } from "./languages.ts";

// Qualified symbol names are segments joined by `.`: `Parser.parse`, `Hash<std.string>.operator()`,
// `<Point as Display>.fmt`, `Model.#classify`. A `.` inside `<>`, `()` or `[]` does not split, and
// an `operator…` segment runs to the end (its punctuation is part of the name).
const OPERATOR = /^operator(?![\w$])/;

/**
 * Splits a qualified name into its segments.
 *
 * @example
 * splitQualified("<Point as fmt.Display>.fmt") // ["<Point as fmt.Display>", "fmt"]
 * splitQualified("Vec.operator->") // ["Vec", "operator->"]
 */
export function splitQualified(name: string): string[] {
  const segments: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < name.length; index++) {
    if (index === start && OPERATOR.test(name.slice(index))) break;
    const char = name[index];
    if (char === "<" || char === "(" || char === "[") depth++;
    else if ((char === ">" || char === ")" || char === "]") && depth > 0) depth--;
    else if (char === "." && depth === 0) {
      segments.push(name.slice(start, index));
      start = index + 1;
    }
  }
  segments.push(name.slice(start));
  return segments;
}

/** The own name of a qualified name: its last segment. */
export function ownName(name: string): string {
  const segments = splitQualified(name);
  return segments[segments.length - 1];
}

/**
 * The form a name is also found by: a Rust trait implementation's
 * `<Type as Trait>` reads as `Type`, so `<Point as Display>.fmt` is also
 * `Point.fmt`. Other names are their own plain form.
 */
export function plainName(name: string): string {
  if (!name.startsWith("<")) return name;
  return splitQualified(name)
    .map((segment) => {
      const match = /^<(.+?) as .+>$/.exec(segment);
      return match && !/[<>]/.test(match[1]) ? match[1] : segment;
    })
    .join(".");
}

/**
 * A symbol name as written by a person or a model, in nav's notation:
 * `::` becomes `.` (`Shape::area`, `<Point as Display>::fmt`), and a Go
 * receiver in parentheses is the type (`(*Server).Start` and
 * `(Server).Start` are `Server.Start`). Surrounding whitespace is dropped.
 */
export function normalizeSymbolName(input: string): string {
  return input
    .trim()
    .replace(/::/g, ".")
    .replace(/(^|\.)\(\*?\s*([A-Za-z_][\w]*)(?:\[[^\]]*\])?\)\./g, "$1$2.");
}

/**
 * True when a query names a symbol: the name itself, its plain form, or a
 * trailing run of its segments (`parse` and `Parser.parse` find
 * `mod.Parser.parse`; `classify` finds `Model.#classify`).
 */
export function namesSymbol(query: string, symbolName: string): boolean {
  if (query === symbolName) return true;
  const wanted = splitQualified(query);
  for (const candidate of symbolName.startsWith("<") ? [symbolName, plainName(symbolName)] : [symbolName]) {
    const segments = splitQualified(candidate);
    if (segments.length < wanted.length) continue;
    const offset = segments.length - wanted.length;
    if (wanted.every((segment, index) => sameSegment(segment, segments[offset + index], index === wanted.length - 1))) return true;
  }
  return false;
}

// A private `#name` is found by `name` in last place (where the member is meant), never the other way.
function sameSegment(wanted: string, segment: string, last: boolean): boolean {
  return wanted === segment || (last && segment.startsWith("#") && segment.slice(1) === wanted);
}

/**
 * The one rule that says whether a target that names nothing indexed was
 * meant as a path (so the answer suggests paths) rather than a symbol: it
 * has a `/` or ends in a known file extension, and is not an operator or a
 * bracketed Rust path. Every nav tool decides with this.
 *
 * @example
 * looksLikePath("src/parsre.ts") // true
 * looksLikePath("Parser.parse") // false: `.parse` is no file extension
 * looksLikePath("Ratio.operator/") // false
 */
export function looksLikePath(target: string): boolean {
  if (/(^|[.:])operator(?![\w$])/.test(target) || target.startsWith("<") || /\s/.test(target.trim())) return false;
  if (target.includes("/") || target.includes("\\")) return true;
  const extension = path.posix.extname(target);
  return extension.length > 1 && detectLanguage(`file${extension}`) !== undefined;
}
