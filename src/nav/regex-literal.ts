// The literal a regular expression's matches must contain, so a search can look
// for it first and run the pattern only on the lines that hold it.
import { isClassEscape, NEWLINE, readEscape } from "./regex-escape.ts";

/** Shorter runs are too common to be worth finding first. */
export const MIN_LITERAL = 3;

/**
 * The longest run of plain characters that every match of `pattern` contains,
 * read from its top level only: not inside groups or classes, not when the
 * pattern has a top-level `|`, and not a character made optional by `?`, `*` or
 * `{0,…}`. `undefined` when there is none. Conservative: it may miss a literal,
 * never claims one a match can lack.
 *
 * @example requiredLiteral("^\\s*class\\s+\\w+Error\\b") // "class" (the longest run; "Error" ties and comes later)
 */
export function requiredLiteral(pattern: string): string | undefined {
  return longestRun(requiredRuns(pattern) ?? []);
}

/** The longest of `runs` (the first of those as long), or `undefined` when there is none. */
export function longestRun(runs: readonly string[]): string | undefined {
  let longest: string | undefined;
  for (const candidate of runs) if (longest === undefined || candidate.length > longest.length) longest = candidate;
  return longest;
}

/**
 * Every run of plain characters that every match of `pattern` contains (read as {@link requiredLiteral}
 * reads them), in the pattern's order; `undefined` when the pattern has a top-level `|` or an escape
 * that cannot be read. A line that lacks any of them cannot match.
 *
 * @example requiredRuns("^\\s*class\\s+\\w+Error\\b") // ["class", "Error"]
 */
export function requiredRuns(pattern: string): string[] | undefined {
  const runs: string[] = [];
  let run = "";
  let depth = 0;
  const end = () => {
    if (run) runs.push(run);
    run = "";
  };
  for (let index = 0; index < pattern.length; ) {
    const char = pattern[index]!;
    const quantifier = quantifierAt(pattern, index);
    if (quantifier) {
      // What it repeats: a plain character of the run (the last one) only if it is required.
      if (depth === 0 && quantifier.optional) run = run.slice(0, -1);
      end();
      index += quantifier.length;
      // A lazy quantifier's `?`.
      if (pattern[index] === "?") index++;
      continue;
    }
    if (char === "\\") {
      const escape = readEscape(pattern, index);
      if ("error" in escape) return undefined;
      if (escape.text === "\\c") {
        // `\c` not followed by a letter is a backslash and a `c` (Annex B): end the run there.
        end();
        index += 1;
        continue;
      }
      if (depth === 0 && escape.codePoint !== undefined && !isClassEscape(escape.text) && escape.codePoint !== NEWLINE) run += String.fromCharCode(escape.codePoint);
      else end();
      index += Math.max(1, escape.text.length);
      continue;
    }
    if (char === "[") {
      end();
      index = skipClass(pattern, index);
      continue;
    }
    if (char === "(") {
      end();
      depth++;
      index++;
      continue;
    }
    if (char === ")") {
      end();
      depth = Math.max(0, depth - 1);
      index++;
      continue;
    }
    if (char === "|") {
      if (depth === 0) return undefined;
      index++;
      continue;
    }
    if (char === "." || char === "^" || char === "$") end();
    else if (depth === 0) run += char;
    index++;
  }
  end();
  return runs;
}

/**
 * The alternatives of each top-level group of `pattern` that every match goes through once at least: a group of
 * two or more alternatives, each a run of ASCII letters, digits and `_` (`(os|sys)`, `(?:get|set)`), with no quantifier
 * after it that allows zero repetitions. Every line a match is in holds one of each group's alternatives (a search
 * may drop the others before it runs the pattern). Empty when there is none, or the pattern has a top-level `|` or an
 * escape that cannot be read (as {@link requiredRuns}; `runs`, when given, is what that answers for `pattern`, with `null` for `undefined`).
 *
 * @example requiredAlternatives("import\\s+(os|sys)\\b") // [["os", "sys"]]
 */
export function requiredAlternatives(pattern: string, runs: readonly string[] | null = requiredRuns(pattern) ?? null): string[][] {
  if (runs === null) return [];
  const groups: string[][] = [];
  for (let index = 0; index < pattern.length; ) {
    const char = pattern[index]!;
    if (char === "\\") {
      index += 2;
      continue;
    }
    if (char === "[") {
      index = skipClass(pattern, index);
      continue;
    }
    if (char !== "(") {
      index++;
      continue;
    }
    const end = groupEnd(pattern, index);
    if (end === undefined) return groups;
    const alternatives = plainAlternatives(pattern.slice(index + 1, end));
    const quantifier = quantifierAt(pattern, end + 1);
    if (alternatives && !quantifier?.optional) groups.push(alternatives);
    index = end + 1;
  }
  return groups;
}

// The index of the `)` that closes the group opened at `open`, or undefined.
function groupEnd(pattern: string, open: number): number | undefined {
  let depth = 0;
  for (let index = open; index < pattern.length; ) {
    const char = pattern[index]!;
    if (char === "\\") index += 2;
    else if (char === "[") index = skipClass(pattern, index);
    else {
      if (char === "(") depth++;
      else if (char === ")" && --depth === 0) return index;
      index++;
    }
  }
  return undefined;
}

// A group's text as plain alternatives (`os|sys`, `?:get|set`, `?<name>a|b`): two or more word runs; else undefined.
function plainAlternatives(inner: string): string[] | undefined {
  const body = inner.startsWith("?:") ? inner.slice(2) : /^\?<[A-Za-z_$][\w$]*>/.test(inner) ? inner.slice(inner.indexOf(">") + 1) : inner;
  const alternatives = body.split("|");
  return alternatives.length >= 2 && alternatives.every((alternative) => /^\w+$/.test(alternative)) ? alternatives : undefined;
}

// A quantifier at `index` (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`): its length, and whether it allows zero repetitions.
function quantifierAt(pattern: string, index: number): { length: number; optional: boolean } | undefined {
  const char = pattern[index];
  if (char === "*" || char === "?") return { length: 1, optional: true };
  if (char === "+") return { length: 1, optional: false };
  if (char !== "{") return undefined;
  const counted = /^\{(\d+)(,\d*)?\}/.exec(pattern.slice(index));
  return counted ? { length: counted[0].length, optional: Number(counted[1]) === 0 } : undefined;
}

// The index just past the class that starts at `index` (which holds `[`).
function skipClass(pattern: string, index: number): number {
  let position = index + 1;
  if (pattern[position] === "^") position++;
  // A `]` right at the start is a literal in some dialects; in JavaScript `[]` is an empty class, so it ends here.
  while (position < pattern.length && pattern[position] !== "]") position += pattern[position] === "\\" ? 2 : 1;
  return position + 1;
}

