import { extractCodeBlocks } from "../intercept/extract-code-blocks.ts";
import { splitReasoning } from "../model/split-reasoning.ts";

/** One piece of a reply, in order: what the model said, or a fence it wrote. */
export type ReplySegment =
  | { readonly kind: "prose"; readonly text: string }
  | { readonly kind: "code"; readonly language: string; readonly code: string; readonly runnable: boolean }
  | { readonly kind: "call"; readonly text: string };

/** A reply taken apart for the detectors: reasoning dropped, fences and tool-call markup found. */
export interface ReplyParts {
  readonly segments: readonly ReplySegment[];
  /** Everything the model said outside fences and calls, joined by blank lines. */
  readonly prose: string;
  /** The prose before the first action (runnable block or tool call). */
  readonly proseBefore: string;
  /** The segments after the first action. */
  readonly afterFirstAction: readonly ReplySegment[];
  /** Runnable blocks and tool-call markup in the reply. */
  readonly actions: number;
  /** The code of every runnable block, in order. */
  readonly code: readonly string[];
}

const RUNNABLE = new Set(["js", "javascript", "repl", "jsx", "mjs", "ts", "typescript"]);
// Tool-call markup of the json and tagged protocols, written in prose.
const CALL_MARKUP = /<tool_call>[\s\S]*?(?:<\/tool_call>|$)|\{\s*"(?:name|tool)"\s*:\s*"[A-Za-z_]\w*"\s*,\s*"(?:arguments|args|parameters)"\s*:[\s\S]*?\}\s*\}/g;

/** Splits a reply into prose, fences and tool-call markup, reasoning left out. */
export function replyParts(reply: string): ReplyParts {
  const { text } = splitReasoning(reply);
  const lines = text.split(/\r?\n/);
  const { runnable, skipped } = extractCodeBlocks(text, () => true);
  const blocks = [...runnable, ...skipped].sort((a, b) => a.startLine - b.startLine);
  const segments: ReplySegment[] = [];
  let line = 0;
  for (const block of blocks) {
    const fenceLine = block.startLine - 2;
    pushProse(segments, lines.slice(line, fenceLine).join("\n"));
    segments.push({ kind: "code", language: block.language, code: block.code, runnable: RUNNABLE.has(block.language) });
    line = block.startLine - 1 + (block.code === "" ? 0 : block.code.split("\n").length) + (block.unclosed ? 0 : 1);
  }
  pushProse(segments, lines.slice(line).join("\n"));
  const isAction = (segment: ReplySegment): boolean => segment.kind === "call" || (segment.kind === "code" && segment.runnable);
  const first = segments.findIndex(isAction);
  const proseOf = (list: readonly ReplySegment[]): string =>
    list.flatMap((segment) => (segment.kind === "prose" ? [segment.text] : [])).join("\n\n");
  return {
    segments,
    prose: proseOf(segments),
    proseBefore: proseOf(first === -1 ? segments : segments.slice(0, first)),
    afterFirstAction: first === -1 ? [] : segments.slice(first + 1),
    actions: segments.filter(isAction).length,
    code: segments.flatMap((segment) => (segment.kind === "code" && segment.runnable ? [segment.code] : [])),
  };
}

function pushProse(segments: ReplySegment[], text: string): void {
  let last = 0;
  for (const match of text.matchAll(CALL_MARKUP)) {
    addProse(segments, text.slice(last, match.index));
    segments.push({ kind: "call", text: match[0] });
    last = match.index + match[0].length;
  }
  addProse(segments, text.slice(last));
}

function addProse(segments: ReplySegment[], text: string): void {
  if (text.trim() !== "") segments.push({ kind: "prose", text: text.trim() });
}

/** Splits prose into sentences (and list items), keeping each one's text. */
export function sentences(prose: string): string[] {
  return prose
    .split(/(?<=[.!?…])\s+(?=[^a-z0-9])|\n+/u)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== "");
}

/** True when a sentence states something concrete: a number, a quoted or backticked value, a path, a list or an object. */
export function hasConcreteValue(text: string): boolean {
  return /\d|\b[\w-]+\.(?:[a-z]{1,4})\b(?!\.)|`[^`]+`|"[^"]+"|'[^'\s][^']*'|«[^»]+»|„[^“]+“|\w+\/[\w.-]+|\[[^\]]+\]|\{[^}]+\}/u.test(text);
}

/** The concrete tokens of a claim (numbers, quoted or backticked values, paths, identifiers with digits), for grounding against output. */
export function concreteTokens(text: string): string[] {
  const tokens = new Set<string>();
  for (const match of text.matchAll(/`([^`]+)`|"([^"]{2,})"|'([^'\s][^']{1,})'|«\s*([^»]+?)\s*»|„([^“]+)“/gu)) {
    tokens.add((match[1] ?? match[2] ?? match[3] ?? match[4] ?? match[5]).trim());
  }
  for (const match of text.matchAll(/[\w.-]+\/[\w./-]+|\b[\w-]+\.[a-z]{1,4}\b(?!\.)|\b\d+(?:[.,]\d+)*\b|\$\d[\d,.]*/gu)) tokens.add(match[0].replace(/[.,]$/, ""));
  return [...tokens].filter((token) => token.length > 0);
}
