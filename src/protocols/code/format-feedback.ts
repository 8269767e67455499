import { MAX_FEEDBACK_MESSAGE_CHARS, type BlockReport } from "../../engine/block-report.ts";
import type { ActionOutcome } from "../../engine/protocol.ts";
import { clip, clipWithNotice } from "../../util/clip.ts";

/** Renders the user message that tells the model what its blocks did. */
export function formatFeedback(reports: readonly BlockReport[], notes: readonly string[] = []): string {
  const parts = reports.map((report) => formatBlock(report));
  return [...parts, ...notes].join("\n\n");
}

/**
 * Renders what a tool-call action did: its JSON result, or why it did not run. Code
 * replies hold no tool-call actions; this is for a reader that adds them.
 */
export function formatToolOutcome(outcome: Exclude<ActionOutcome, { readonly report: BlockReport }>): string {
  const name = outcome.action.name ?? "(unnamed call)";
  if (!outcome.ok) return `[call ${name}]\nnot run — ${boundMessage(outcome.error)}`;
  return `[call ${name}] → ${outcome.chars.toLocaleString("en-US")} characters of JSON${outcome.truncated ? " (cut to the size limit)" : ""}\n${JSON.stringify(outcome.value)}`;
}

function formatBlock(report: BlockReport): string {
  const lines: string[] = [`[block ${report.index + 1}]`];
  if (report.unclosed) lines.push("(this block had no closing ``` fence; it was run as far as the reply went)");
  if (report.problems) {
    lines.push(`not run — ${report.problems.length === 1 ? "1 problem" : `${report.problems.length} problems`}:`);
    for (const problem of report.problems) {
      lines.push(`- line ${problem.line}, column ${problem.column}: ${boundMessage(problem.message)}`);
      const source = sourceLine(report.code, problem.line);
      if (source !== undefined) lines.push(`    ${problem.line} | ${source}`);
    }
    return lines.join("\n");
  }
  for (const call of report.toolCalls) {
    lines.push(`${call.target} = ${call.source} → ${call.chars.toLocaleString("en-US")} characters of JSON${call.truncated ? ` (over the ${call.limitChars.toLocaleString("en-US")}-character limit: cut, see the … notices in the value)` : ""}`);
  }
  if (report.toolError) {
    lines.push(`not run — ${boundMessage(report.toolError)}`);
    return lines.join("\n");
  }
  const result = report.result;
  if (!result) return lines.join("\n");
  if (result.output.length > 0) lines.push(`output:\n${result.output.replace(/\n$/, "")}`);
  if (result.outputTruncated) lines.push(`(output cut at ${result.output.length.toLocaleString("en-US")} characters: print less, e.g. slices or counts)`);
  if (result.error) {
    const where = result.error.line !== undefined ? ` (line ${result.error.line}${result.error.column !== undefined ? `, column ${result.error.column}` : ""})` : "";
    // The session has already cut the error's name and message (boundResult).
    lines.push(`error: ${result.error.name}: ${result.error.message}${where}`);
    const source = result.error.line !== undefined ? sourceLine(report.code, result.error.line) : undefined;
    if (source !== undefined) lines.push(`    ${result.error.line} | ${source}`);
  }
  if (result.reset) {
    lines.push("The sandbox was restarted after this block: every variable you defined is gone. `context` and the tools are still there; re-create what you need.");
  }
  if (!result.error && result.output.length === 0 && report.toolCalls.length === 0) lines.push("(ran; no output — use print() to see values)");
  return lines.join("\n");
}

/** Guest code controls error messages (and echoed names and keys), so each is bounded. */
function boundMessage(text: string): string {
  return clipWithNotice(text, MAX_FEEDBACK_MESSAGE_CHARS);
}

function sourceLine(code: string, line: number): string | undefined {
  const text = code.split("\n")[line - 1];
  if (text === undefined) return undefined;
  return clip(text, 160);
}
