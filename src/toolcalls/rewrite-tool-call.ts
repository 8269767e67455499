import type { ModelClient, ModelResponse } from "../model/model-client.ts";
import { splitReasoning } from "../model/split-reasoning.ts";
import { loadPrompt, renderPrompt } from "../prompts/prompts.ts";
import type { Tool } from "../tools/tool.ts";
import { validateToolArguments } from "../tools/validate-arguments.ts";
import { parseToolCalls } from "./parse-tool-calls.ts";

/** Options of {@link rewriteToolCall}. */
export interface RewriteToolCallOptions {
  /** The model that rewrites the call (often a small, fast one). */
  readonly model: ModelClient;
  /** The tools the call may be of. */
  readonly tools: readonly Tool[];
  /** The tool the call named, when it named a registered one: the rewrite must call it. */
  readonly name?: string;
  /** The call as the model wrote it. */
  readonly raw: string;
  /** Why it cannot run (a parse error, the schema's errors). */
  readonly error: string;
  /** Completion token limit of the rewrite. Default 1,024. */
  readonly maxTokens?: number;
  readonly signal?: AbortSignal;
}

/** A rewritten call, valid against its tool's schema, or why there is none. */
export type RewriteToolCallResult =
  | { readonly ok: true; readonly name: string; readonly arguments: Record<string, unknown>; readonly response: ModelResponse }
  | { readonly ok: false; readonly error: string; readonly response?: ModelResponse };

/**
 * Asks a model, once, to rewrite a call that cannot run (JSON that does not parse,
 * arguments the schema refuses) as a valid one, given the call as written, the error
 * and the JSON Schema of the tool it named (of every tool when it named none). The
 * reply is read as a `json`-protocol call and checked against the schema; anything
 * else — no call, another tool, arguments still invalid, the model failing — is
 * `ok: false` with the reason, never a throw (except when `signal` aborts).
 *
 * @example
 * const fixed = await rewriteToolCall({ model: small, tools, name: "nav_search", raw: '<nav_search>{query: retry}</nav_search>', error: "not valid JSON" });
 * if (fixed.ok) await run(fixed.name, fixed.arguments);
 */
export async function rewriteToolCall({ model, tools, name, raw, error, maxTokens = 1_024, signal }: RewriteToolCallOptions): Promise<RewriteToolCallResult> {
  const named = name === undefined ? undefined : tools.find((tool) => tool.name === name);
  const shown = named ? [named] : tools;
  const prompt = renderPrompt(loadPrompt("rewrite-tool-call"), {
    raw,
    error,
    tools: shown.map((tool) => `### ${tool.name}\n${tool.description}\n\`\`\`json\n${JSON.stringify(tool.parameters)}\n\`\`\``).join("\n\n"),
    name_rule: named ? `The tool is \`${named.name}\`.` : "Choose the tool the call meant.",
  });
  let response: ModelResponse;
  try {
    response = await model.complete({ messages: [{ role: "user", content: prompt }], maxTokens, temperature: 0, ...(signal ? { signal } : {}) });
  } catch (failure) {
    if (signal?.aborted) throw failure;
    return { ok: false, error: `the rewrite failed: ${(failure as Error)?.message ?? String(failure)}` };
  }
  const events = parseToolCalls(splitReasoning(response.text).text, { protocol: "json", tools: shown });
  const call = events.find((event) => event.type === "tool_call");
  if (!call || call.type !== "tool_call") {
    const invalid = events.find((event) => event.type === "invalid_tool_call");
    return { ok: false, error: `the rewrite held no valid call${invalid?.type === "invalid_tool_call" ? ` (${invalid.error})` : ""}`, response };
  }
  const tool = shown.find((candidate) => candidate.name === call.name)!;
  const checked = validateToolArguments(tool, call.arguments);
  if (!checked.ok) return { ok: false, error: `the rewrite is still invalid: ${checked.message}`, response };
  return { ok: true, name: tool.name, arguments: checked.args, response };
}
