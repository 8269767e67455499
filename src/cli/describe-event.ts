import type { SessionEvent } from "../core/events.ts";
import { clip } from "../util/clip.ts";
import { mapFinishReason } from "../model/finish-reason.ts";
import { describeModelOutput, describeModelRequest, describeModelRetry } from "./describe-model-call.ts";

/**
 * Says in a few words what an event means for a person watching, e.g.
 * `model replied in 0.9 s`, `nav_search("retry")`, `block 1 failed: TypeError`.
 * Returns undefined for events not worth a progress line.
 */
export function describeEvent(event: SessionEvent): string | undefined {
  const sub = (event.depth ?? 0) > 0 ? `sub-call ${event.depth}: ` : "";
  switch (event.type) {
    case "session_start":
      return event.depth > 0 ? `${sub}started (${event.model})` : undefined;
    case "model_call":
      return `${sub}model replied in ${(event.durationMs / 1000).toFixed(1)} s${mapFinishReason(event.finishReason) === "length" ? ", cut at the token limit (--max-tokens)" : ""}`;
    case "history_compacted":
      return `${sub}history compacted to fit the context window: ${event.compactedTurns} turn${event.compactedTurns === 1 ? "" : "s"} summarized, ~${event.tokensBefore.toLocaleString("en-US")} → ~${event.tokensAfter.toLocaleString("en-US")} tokens`;
    case "model_request":
      return `${sub}${servesSubcall(event)}${describeModelRequest(event)}`;
    case "model_retry":
      return `${sub}${servesSubcall(event)}${describeModelRetry(event)}`;
    case "model_progress":
      return `${sub}${servesSubcall(event)}${describeModelOutput(event)}`;
    case "code_block": {
      const first = event.code.split("\n").find((line) => line.trim() !== "")?.trim();
      return `${sub}running block ${event.index + 1}${first ? `: ${clip(first, 60)}` : ""}`;
    }
    case "intercept_rejected":
      return `${sub}block ${event.index + 1} rejected: ${event.problems[0]?.message ?? "not runnable"}`;
    case "tool_call":
      return `${sub}${event.tool}(${shortArgs(event.args)})${event.error ? " failed" : event.resultChars !== undefined ? ` → ${event.resultChars.toLocaleString("en-US")} chars` : ""}`;
    case "sandbox_result":
      if (event.error) return `${sub}block ${event.index + 1} failed: ${event.error.name}`;
      if (event.final) return `${sub}block ${event.index + 1} called FINAL`;
      return `${sub}block ${event.index + 1} printed ${lineCount(event.output)}`;
    case "final":
      return `${sub}final answer`;
    case "error":
      return `${sub}error: ${firstLine(event.message)}`;
    case "session_end":
      return event.depth > 0 ? `${sub}${event.status}` : undefined;
    case "feedback":
      return undefined;
    case "subcall_start":
      return `${sub}${event.kind === "rlm" ? "rlm_query" : "llm_query"} → ${event.model}${event.batchIndex !== undefined ? ` #${event.batchIndex + 1}` : ""}`;
    case "subcall_end":
      return `${sub}${event.kind === "rlm" ? "rlm_query" : "llm_query"} ${event.error ? "failed" : event.refused ? `refused (${event.refused})` : event.cached ? "answered from cache" : "answered"}`;
    case "budget_exceeded":
      return `${sub}budget exceeded: ${event.limit}`;
    case "translation":
      return `${sub}${event.tool} by description → ${event.status === "translated" ? `${event.calls?.length ?? 0} call${event.calls?.length === 1 ? "" : "s"}` : event.status}`;
    case "background_task":
      return `${sub}background ${event.taskId}: ${event.state}${event.error ? ` (${firstLine(event.error)})` : ""}`;
    case "validation":
      if (event.violations.length > 0) return `${sub}validation: ${event.violations.map((violation) => violation.hook).join(", ")}${event.correction ? " (corrected)" : ""}`;
      return event.notes.length > 0 ? `${sub}validation: ${firstLine(event.notes[0]!)}` : undefined;
    case "protocol_degraded":
      return `${sub}protocol ${event.from} → ${event.to}: ${clip(firstLine(event.reason), 120)}`;
    default: {
      const loose = event as { type: string; model?: string };
      return `${sub}${loose.type.replace(/_/g, " ")}${loose.model ? ` (${loose.model})` : ""}`;
    }
  }
}

/** `llm_query: ` for a model call that serves an `llm_query` sub-call, nothing for the session's own turns. */
export function servesSubcall(event: { readonly subcallId?: string }): string {
  return event.subcallId !== undefined ? "llm_query: " : "";
}

function shortArgs(args: readonly unknown[]): string {
  const text = args.map((arg) => JSON.stringify(arg) ?? "undefined").join(", ");
  return clip(text, 48);
}

function lineCount(output: string): string {
  if (output === "") return "nothing";
  // Each print ends its line with "\n"; that last newline does not start another line.
  const lines = output.replace(/\n$/, "").split("\n").length;
  return `${lines} line${lines === 1 ? "" : "s"}`;
}

function firstLine(text: string): string {
  const line = text.split("\n")[0];
  return clip(line, 100);
}
