import type { SessionEvent } from "../core/events.ts";
import { escapeHtml } from "./escape-html.ts";
import { buildSessionTree, type BlockNode, type SessionNode, type TurnNode } from "./session-tree.ts";
import { TRACE_STYLES } from "./trace-styles.ts";
import { displayValue } from "../util/display-value.ts";

/** Characters of a tool result or reply shown before it is cut (the trace keeps everything). */
export const MAX_SHOWN_CHARS = 20_000;

/** Options of {@link renderTraceHtml}. */
export interface RenderTraceOptions {
  /** The page title. Default: "rlmkit trace" plus the start of the question. */
  readonly title?: string;
  /** Lines of the trace that could not be read, listed at the bottom. */
  readonly problems?: readonly string[];
}

/**
 * Renders trace events as one self-contained HTML page: a summary, the final
 * answer, and a timeline of model turns with their code blocks (intercepted
 * calls highlighted), tool results, sandbox output and errors, and sub-calls
 * nested under their block. Everything from the trace is escaped (it is written
 * by a model), the page has no scripts, and a Content-Security-Policy forbids
 * any network access, so it opens offline.
 *
 * @example
 * const { events } = readTrace("run.jsonl");
 * writeFileSync("run.html", renderTraceHtml(events));
 */
export function renderTraceHtml(events: readonly SessionEvent[], { title, problems = [] }: RenderTraceOptions = {}): string {
  const roots = buildSessionTree(events);
  const root = roots[0];
  const question = root?.start?.question ?? "";
  const pageTitle = title ?? `rlmkit trace${question ? ` — ${question.slice(0, 80)}` : ""}`;
  const body = roots.length === 0 ? `<p class="muted">The trace holds no events.</p>` : roots.map((session) => renderRootSession(session)).join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(pageTitle)}</title>
<style>${TRACE_STYLES}</style>
</head>
<body>
<main>
${body}
${problems.length ? `<section class="card"><h2>Unreadable trace lines</h2><ul>${problems.map((problem) => `<li>${escapeHtml(problem)}</li>`).join("")}</ul></section>` : ""}
<footer>Rendered by rlmkit view from ${events.length} trace events.</footer>
</main>
</body>
</html>
`;
}

type EventOf<T extends SessionEvent["type"]> = Extract<SessionEvent, { type: T }>;

function renderRootSession(session: SessionNode): string {
  const start = session.start;
  const end = session.end;
  const status = end?.status ?? "unfinished";
  const cost = end ? usageCost(end.usage) : undefined;
  const stats = [
    start ? `model <b>${escapeHtml(start.model)}</b>` : "",
    end ? `<b>${end.iterations}</b> turn${end.iterations === 1 ? "" : "s"}` : "",
    end ? `<b>${formatNumber(end.usage.promptTokens)}</b> prompt + <b>${formatNumber(end.usage.completionTokens)}</b> completion tokens${end.usage.estimated ? " (estimated: the server reported no usage)" : ""}` : "",
    end ? `<b>${end.usage.modelCalls}</b> model call${end.usage.modelCalls === 1 ? "" : "s"}` : "",
    cost !== undefined ? `cost <b>${cost}</b>` : "",
    end ? `<b>${formatDuration(end.durationMs)}</b>` : "",
    start?.tools.length ? `tools ${start.tools.map((tool) => `<code>${escapeHtml(tool)}</code>`).join(" ")}` : "",
  ].filter(Boolean);
  return `<section class="summary" data-testid="summary">
<h1>rlmkit session ${statusBadge(status)}</h1>
<div class="question">${escapeHtml(start?.question ?? "(no session_start event)")}</div>
<div class="stats">${stats.map((stat) => `<span>${stat}</span>`).join("")}</div>
<div class="note">session ${escapeHtml(session.sessionId)}${start ? ` · started ${escapeHtml(start.time)}` : ""}</div>
${end?.error ? `<div class="error">${escapeHtml(end.error)}</div>` : ""}
${session.other.filter((event) => event.type === "validation").map((event) => renderOther(event)).join("\n")}
</section>
${renderAnswer(session)}
<ol class="timeline" data-testid="timeline">
${session.turns.map((turn) => renderTurn(turn)).join("\n")}
${session.errors.map((error) => `<li class="turn"><div class="card"><div class="error">${escapeHtml(error.message)}</div></div></li>`).join("\n")}
${session.children.map((child) => `<li class="turn"><div class="card">${renderChild(child)}</div></li>`).join("\n")}
</ol>`;
}

function renderAnswer(session: SessionNode): string {
  if (!session.final && session.end?.answer === undefined) return "";
  const answer = session.final ? session.final.answer : session.end?.answer;
  return `<section class="answer" data-testid="final-answer"><h2>Final answer</h2><pre>${escapeHtml(displayValue(answer))}</pre></section>`;
}

function renderTurn(turn: TurnNode): string {
  const call = turn.modelCall;
  const cost = costOf(call);
  const retries = turn.retries.length;
  const stats = call
    ? [
        escapeHtml(call.model),
        `${formatNumber(call.promptTokens)} → ${formatNumber(call.completionTokens)} tokens${call.usageEstimated ? " (estimated)" : ""}`,
        call.priced === false ? "cost unknown" : cost !== undefined ? formatCost(cost) : "",
        retries > 0 ? escapeHtml(`${retries} ${retries === 1 ? "retry" : "retries"} (${turn.retries.map((retry) => `${retry.status ?? retry.failure}, waited ${formatDuration(retry.delayMs)}`).join("; ")})`) : "",
        formatDuration(call.durationMs),
        call.finishReason !== "stop" ? `finish: ${escapeHtml(call.finishReason)}` : "",
      ].filter(Boolean)
    : [];
  return `<li class="turn" data-testid="turn">
<div class="card">
<div class="turn-head"><h2>Turn ${turn.iteration}</h2><div class="stats">${stats.map((stat) => `<span>${stat}</span>`).join("")}</div></div>
${call?.reasoning ? `<details data-testid="reasoning"><summary>Reasoning (${formatNumber(call.reasoning.length)} characters; never run)</summary><pre class="reply reasoning">${escapeHtml(cut(call.reasoning))}</pre></details>` : ""}
${call ? `<details><summary>Model reply (${formatNumber(call.text.length)} characters)</summary><pre class="reply">${escapeHtml(cut(call.text))}</pre></details>` : ""}
${turn.blocks.map((block) => renderBlock(block)).join("\n")}
${turn.other.map((event) => renderOther(event)).join("\n")}
${turn.errors.map((error) => `<div class="error">${escapeHtml(error.message)}</div>`).join("\n")}
${turn.feedback.map((feedback) => `<details><summary>Feedback sent to the model</summary><pre class="feedback">${escapeHtml(cut(feedback.text))}</pre></details>`).join("\n")}
</div>
</li>`;
}

function renderBlock(block: BlockNode): string {
  const code = block.code?.code ?? "";
  const tags = new Map<number, { text: string; bad: boolean }[]>();
  const tag = (line: number, text: string, bad: boolean) => tags.set(line, [...(tags.get(line) ?? []), { text, bad }]);
  for (const call of block.toolCalls) tag(call.line, call.error ? `${call.tool} failed` : `intercepted: ${call.tool}`, Boolean(call.error));
  for (const problem of block.rejected?.problems ?? []) tag(problem.line, "rejected", true);
  const lines = code.split("\n").map((text, offset) => {
    const number = offset + 1;
    const marks = tags.get(number) ?? [];
    const kind = marks.some((mark) => mark.bad) ? " rejected" : marks.length ? " intercepted" : "";
    return `<span class="ln${kind}"><span class="no">${number}</span>${escapeHtml(text)}${marks.map((mark) => `<span class="tag${mark.bad ? " bad" : ""}">${escapeHtml(mark.text)}</span>`).join("")}</span>`;
  });
  const result = block.result;
  const head = [`Block ${block.index + 1}`, block.code?.language || "js", block.code?.unclosed ? "unclosed fence" : "", result ? `ran in ${formatDuration(result.durationMs)}` : "", result?.final ? "called FINAL" : "", result?.reset ? "sandbox reset" : ""].filter(Boolean);
  return `<div class="block" data-testid="code-block">
<div class="block-head">${head.map(escapeHtml).join(" · ")}</div>
<pre class="code">${lines.join("")}</pre>
${block.rejected ? `<div class="error">Rejected before running:\n${block.rejected.problems.map((problem) => `line ${problem.line}:${problem.column} ${escapeHtml(problem.message)}`).join("\n")}</div>` : ""}
${block.toolCalls.map((call) => renderToolCall(call)).join("\n")}
${block.sequence.map((item) => ("turns" in item ? renderChild(item) : renderOther(item))).join("\n")}
${result && result.output ? `<pre class="output" data-testid="sandbox-output">${escapeHtml(cut(result.output.replace(/\n$/, "")))}${result.outputTruncated ? "\n[output truncated]" : ""}</pre>` : ""}
${result?.error ? `<div class="error" data-testid="sandbox-error">${escapeHtml(result.error.name)}: ${escapeHtml(result.error.message)}${result.error.line !== undefined ? ` (line ${result.error.line}${result.error.column !== undefined ? `:${result.error.column}` : ""})` : ""}</div>` : ""}
</div>`;
}

function renderToolCall(call: Extract<SessionEvent, { type: "tool_call" }>): string {
  const args = call.args.map((arg) => JSON.stringify(arg) ?? "undefined").join(", ");
  const facts = [`line ${call.line}`, formatDuration(call.durationMs), call.resultChars !== undefined ? `${formatNumber(call.resultChars)} chars` : "", call.truncated ? "truncated" : "", call.injectedAs ? `as ${call.injectedAs}` : ""].filter(Boolean);
  const body = call.error
    ? `<div class="error">${escapeHtml(call.error)}</div>`
    : call.result !== undefined
      ? `<details><summary>Result</summary><pre class="json">${escapeHtml(cut(JSON.stringify(call.result, null, 2)))}</pre></details>`
      : `<div class="note">Result not kept in the trace (over 20,000 characters).</div>`;
  return `<div class="tool" data-testid="tool-call"><span class="name">${escapeHtml(call.tool)}(${escapeHtml(cut(args, 300))})</span> <span class="muted">${facts.map(escapeHtml).join(" · ")}</span>${body}</div>`;
}

function renderChild(session: SessionNode): string {
  const start = session.start;
  const end = session.end;
  const label = [`Sub-call (depth ${session.depth})`, start ? start.model : "", end ? end.status : "unfinished", end ? `${end.usage.estimated ? "~" : ""}${formatNumber(end.usage.promptTokens + end.usage.completionTokens)} tokens` : "", end ? (usageCost(end.usage) ?? "") : ""].filter(Boolean);
  return `<details class="subcall" data-testid="subcall"><summary>${label.map(escapeHtml).join(" · ")}</summary>
${start ? `<div class="question">${escapeHtml(cut(start.question, 2000))}</div>` : ""}
${renderAnswer(session)}
<ol class="timeline">${session.turns.map((turn) => renderTurn(turn)).join("\n")}${session.children.map((child) => `<li class="turn">${renderChild(child)}</li>`).join("")}</ol>
${session.errors.map((error) => `<div class="error">${escapeHtml(error.message)}</div>`).join("\n")}
</details>`;
}

function renderOther(event: SessionEvent): string {
  if (event.type === "subcall_start" || (event.type === "subcall_end" && event.kind === "rlm")) return "";
  if (event.type === "validation") return renderValidation(event);
  if (event.type === "model_retry") return `<div class="note"><b>llm_query retried</b> ${escapeHtml(`attempt ${event.attempt}/${event.maxAttempts} failed (${event.status ?? event.failure}), waited ${formatDuration(event.delayMs)}`)}</div>`;
  if (event.type === "subcall_end") {
    const label = [`llm_query${event.batchIndex !== undefined ? ` #${event.batchIndex + 1}` : ""}`, event.model, event.cached ? "cached" : "", event.refused ? `refused: ${event.refused}` : "", `${formatNumber(event.promptTokens)} → ${formatNumber(event.completionTokens)} tokens`, event.costUsd > 0 ? formatCost(event.costUsd) : "", formatDuration(event.durationMs)].filter(Boolean);
    const response = event.response !== undefined ? displayValue(event.response) : undefined;
    return `<details class="subcall" data-testid="subcall"><summary>${label.map(escapeHtml).join(" · ")}</summary>${event.error ? `<div class="error">${escapeHtml(event.error)}</div>` : ""}${response !== undefined ? `<pre class="reply">${escapeHtml(cut(response))}</pre>` : ""}</details>`;
  }
  const { sessionId: _sessionId, time: _time, elapsedMs: _elapsed, depth: _depth, type, ...rest } = event as SessionEvent & Record<string, unknown>;
  const cost = costOf(rest);
  return `<div class="note"><b>${escapeHtml(type)}</b>${cost !== undefined ? ` · ${formatCost(cost)}` : ""} <code>${escapeHtml(cut(JSON.stringify(rest), 400))}</code></div>`;
}

function renderValidation(event: EventOf<"validation">): string {
  // A round that confirmed and noted nothing (its suppressed detections included) stays in the trace only.
  if (event.violations.length === 0 && event.notes.length === 0) return "";
  const where = [event.point ?? "session", event.phase].filter(Boolean).join(", ");
  const rows = [
    ...event.violations.map((violation) => `<li class="bad"><b>${escapeHtml(violation.hook)}</b> ${escapeHtml(cut(violation.reason, 600))}</li>`),
    ...event.suppressed.map((item) => `<li class="muted"><b>${escapeHtml(item.hook)}</b> not confirmed: ${escapeHtml(cut(item.reason, 600))}</li>`),
    ...event.notes.map((note) => `<li class="muted">${escapeHtml(cut(note, 600))}</li>`),
  ];
  return `<div class="note validation" data-testid="validation"><b>Validation</b> <span class="muted">(${escapeHtml(where)})</span><ul>${rows.join("")}</ul>${event.correction ? `<details><summary>Correction sent to the model</summary><pre class="feedback">${escapeHtml(cut(event.correction))}</pre></details>` : ""}</div>`;
}

function statusBadge(status: string): string {
  const kind = status === "final" ? "final" : status === "error" || status === "unfinished" ? "bad" : "limit";
  return `<span class="badge ${kind}" data-testid="status">${escapeHtml(status)}</span>`;
}

/**
 * A session's cost as a person should read it: `$0.0123`; `cost unknown` when a
 * model had no price (a local model: not `$0.0000`); `≥ $0.0123 (some models
 * unpriced)` when only some had. Traces written before `costKnown` existed fall
 * back on `unpricedModels`.
 */
function usageCost(usage: EventOf<"session_end">["usage"]): string | undefined {
  const cost = costOf(usage);
  if (cost === undefined) return undefined;
  const known = usage.costKnown ?? (usage.unpricedModels ?? []).length === 0;
  if (known) return formatCost(cost);
  return cost > 0 ? `≥ ${formatCost(cost)} (some models unpriced)` : "cost unknown";
}

/** Reads a cost in US dollars from an event or usage object, when the producer recorded one. */
function costOf(value: unknown): number | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as Record<string, unknown>;
  for (const key of ["costUsd", "cost"]) if (typeof record[key] === "number") return record[key] as number;
  return undefined;
}

function cut(text: string, max = MAX_SHOWN_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}\n… (${formatNumber(text.length - max)} more characters in the trace)` : text;
}

function formatNumber(value: number): string {
  return value.toLocaleString("en-US");
}

function formatCost(usd: number): string {
  return usd >= 0.01 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
