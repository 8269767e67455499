import { isNavError } from "../../nav/nav-results.ts";
import type { NavTools } from "../../nav/create-nav-tools.ts";
import type { Detector } from "./detector.ts";

/** A `path:line` or `path:start-end` an answer cites, with the identifier it names next to it. */
export interface Citation {
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  /** The identifier named next to the citation (`retryDelay` in "`retryDelay` (src/retry.ts:12)"), when there is one. */
  readonly identifier?: string;
  readonly text: string;
}

// A path with an extension (or a dotfile), then :line or :start-end (a :column after it is ignored). Not part of a URL.
const CITATION = /(?<![\w/.:-])((?:[\w.-]+\/)*(?:\.[\w-]+|[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{0,7})):(\d+)(?:\s*[-–]\s*(\d+)|:\d+)?(?![\w:])/gu;
const BACKTICKED = /`([^`\n]+)`/gu;
const IDENTIFIER = /\b([A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*)\s*(?:\(\))?/gu;
const WINDOW = 80;

/** Finds the citations of an answer and the identifier named closest to each, within its sentence. */
export function findCitations(text: string): Citation[] {
  const citations: Citation[] = [];
  for (const match of text.matchAll(CITATION)) {
    const startLine = Number(match[2]);
    const endLine = match[3] === undefined ? startLine : Number(match[3]);
    const identifier = nearestIdentifier(text, match.index, match.index + match[0].length);
    citations.push({ path: match[1], startLine, endLine, text: match[0], ...(identifier ? { identifier } : {}) });
  }
  return citations;
}

function nearestIdentifier(text: string, start: number, end: number): string | undefined {
  const sentenceStart = Math.max(start - WINDOW, lastBoundary(text.slice(0, start)));
  const after = text.slice(end, end + WINDOW);
  const sentenceEnd = end + (after.search(/[.!?;](?:\s|$)|\n/u) === -1 ? after.length : after.search(/[.!?;](?:\s|$)|\n/u));
  const candidates: { name: string; distance: number }[] = [];
  const consider = (pattern: RegExp, strict: boolean): void => {
    for (const range of [[sentenceStart, start], [end, sentenceEnd]] as const) {
      const slice = text.slice(range[0], range[1]);
      for (const match of slice.matchAll(pattern)) {
        const name = match[1].replace(/\(\)$/u, "");
        if (/[/]|\.\w{1,4}$/u.test(name) && !/[A-Z_]|::|#/u.test(name.split(".").at(-1) ?? "")) continue; // a path, not a name
        if (strict && !looksLikeCodeName(name, match[0])) continue;
        const position = range[0] + match.index;
        candidates.push({ name, distance: range[0] === end ? position - end : start - (position + match[0].length) });
      }
    }
  };
  consider(BACKTICKED, false);
  if (candidates.length === 0) consider(IDENTIFIER, true);
  candidates.sort((a, b) => a.distance - b.distance);
  const name = candidates[0]?.name;
  return name === undefined ? undefined : (name.split(/\.|::|#/u).at(-1) ?? name).replace(/\W+$/u, "");
}

function lastBoundary(text: string): number {
  const match = /[.!?;\n](?=[^.!?;\n]*$)/u.exec(text);
  return match ? match.index + 1 : 0;
}

/** camelCase, PascalCase with a lower-case letter after the first, snake_case, SCREAMING_CASE, or written as a call. */
function looksLikeCodeName(name: string, written: string): boolean {
  return /\(\)\s*$/u.test(written.trim()) || /[a-z][A-Z]|_|::|#/u.test(name) || /^[A-Z][a-z]+[A-Z]/u.test(name) || /^[a-z]+\.[a-z]/iu.test(name);
}

/** Checks one citation against the repository: the file exists, the lines exist, the identifier is on them. */
export async function checkCitation(repo: NavTools, citation: Citation): Promise<string | undefined> {
  const { path, startLine, endLine, identifier } = citation;
  if (startLine < 1 || endLine < startLine) return `${citation.text} is not a line range (lines start at 1, the end may not come before the start)`;
  const lines: string[] = [];
  let lastLine = 0;
  for (let chunk = 1, chunks = 1; chunk <= chunks; chunk++) {
    const read = await repo.read(`${path}:${startLine}-${endLine}`, { chunk });
    if (isNavError(read)) return `${citation.text}: ${read.error}`;
    lines.push(read.text);
    lastLine = read.endLine;
    chunks = read.chunks;
  }
  if (lastLine < endLine) return `${citation.text}: ${path} has only ${lastLine} lines`;
  if (identifier !== undefined && !new RegExp(`(?<![\\w$])${identifier.replace(/[$]/gu, "\\$")}(?![\\w$])`, "u").test(lines.join("\n"))) {
    return `${citation.text} does not contain \`${identifier}\`${startLine === endLine ? ` (line ${startLine} is: ${JSON.stringify(lines.join("").trim().slice(0, 100))})` : ""}`;
  }
  return undefined;
}

/**
 * `ungrounded_citation`: in a session over a repository, every `path:line` or
 * `path:start-end` the answer cites must name a file the nav tools may read, lines
 * inside it, and lines holding the identifier the answer names next to it.
 */
export const detectUngroundedCitation: Detector = async ({ repo, answerText }) => {
  if (!repo || !answerText) return undefined;
  const problems: string[] = [];
  for (const citation of findCitations(answerText).slice(0, 20)) {
    const problem = await checkCitation(repo, citation);
    if (problem) problems.push(problem);
  }
  if (problems.length === 0) return undefined;
  return { reason: problems.join("; "), slots: { citations: problems.map((problem) => `- ${problem}`).join("\n") } };
};
