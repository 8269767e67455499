import { boundNames, parseGuest } from "../../sandbox/index.ts";
import { clip } from "../util/clip.ts";
import type { BlockReport } from "./block-report.ts";
import type { ActionOutcome } from "./protocol.ts";

/** The most characters of one turn's record. */
export const MAX_TURN_RECORD_CHARS = 400;
const SNIPPET_CHARS = 100;

/**
 * A short record of one turn, kept for when the turn is compacted out of the
 * history: per block, the names it defined (still in the sandbox), its first
 * line, and what came of it (tool calls, the start of its output, or its error);
 * per tool-call action, the tool and the size of its result or its error.
 *
 * @example turnRecord(1, outcomes) // "turn 1: block 1 defines lines, count — `const lines = context.split…` → output: 3"
 */
export function turnRecord(turn: number, outcomes: readonly ActionOutcome[]): string {
  const parts = outcomes.map((action) => {
    if (!("report" in action)) {
      const name = action.action.name ?? "(unnamed)";
      return action.ok ? `call ${name} → ${action.chars.toLocaleString("en-US")} characters of JSON` : `call ${name} failed: ${oneLine(action.error, SNIPPET_CHARS)}`;
    }
    const report = action.report;
    const names = definedNames(report.code);
    const head = `block ${report.index + 1}${names.length > 0 ? ` defines ${names.join(", ")}` : ""} — \`${oneLine(report.code, SNIPPET_CHARS)}\``;
    return `${head} → ${outcome(report)}`;
  });
  return clipRecord(`turn ${turn}: ${parts.join("; ")}`);
}

/** The record of a turn in which nothing ran, saying why. */
export function emptyTurnRecord(turn: number, why: string): string {
  return clipRecord(`turn ${turn}: nothing ran (${why})`);
}

function outcome(report: BlockReport): string {
  if (report.problems) return `refused: ${oneLine(report.problems[0]?.message ?? "", SNIPPET_CHARS)}`;
  const calls = report.toolCalls.map((call) => `${call.target} = ${call.source}`);
  if (report.toolError) return [...calls, `failed: ${oneLine(report.toolError, SNIPPET_CHARS)}`].join(", ");
  const result = report.result;
  if (!result) return calls.join(", ") || "not run";
  const parts = [...calls];
  if (result.error) parts.push(`error: ${oneLine(`${result.error.name}: ${result.error.message}`, SNIPPET_CHARS)}`);
  else if (result.output.length > 0) parts.push(`output (${result.output.length.toLocaleString("en-US")} characters): ${oneLine(result.output, SNIPPET_CHARS)}`);
  else parts.push("ran, no output");
  if (result.reset) parts.push("the sandbox was restarted: variables were lost");
  return parts.join(", ");
}

/** Top-level names a block declares; none when it does not parse. */
function definedNames(code: string): string[] {
  try {
    const names: string[] = [];
    for (const statement of parseGuest(code).body) {
      if (statement.type === "VariableDeclaration") for (const declarator of statement.declarations) names.push(...boundNames(declarator.id));
      else if ((statement.type === "FunctionDeclaration" || statement.type === "ClassDeclaration") && statement.id) names.push(statement.id.name);
    }
    return names.slice(0, 12);
  } catch {
    return [];
  }
}

function oneLine(text: string, max: number): string {
  return clip(text.replace(/\s+/g, " ").trim(), max);
}

function clipRecord(text: string): string {
  return clip(text, MAX_TURN_RECORD_CHARS);
}
