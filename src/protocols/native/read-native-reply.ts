import type { Action, ReadReply, ReadReplyInput } from "../../engine/protocol.ts";
import type { ToolCall } from "../../model/model-client.ts";
import { loadPrompt, renderPrompt } from "../../prompts/prompts.ts";
import { readReply as splitReply } from "../../session/reply-reasoning.ts";
import { answerRule } from "./native-prompt.ts";

/**
 * Reads a reply of the provider's tool-calling API. Each of `response.toolCalls`
 * becomes an action, in order: a `tool_call` when its arguments parse as a JSON
 * object (empty arguments are `{}`), else an `invalid_tool_call` whose error the model
 * gets back; so is a call of a tool the session does not have. The history keeps the
 * text (reasoning only with `keepReasoning`) and every call as the provider sent it,
 * extras included. A reply with no call is the answer (its text), unless the
 * session answers through `finalAnswerTool`; an empty one is told to call a tool or answer.
 */
export function readNativeReply({ response, keepReasoning, maxTokens, toolNames, finalAnswerTool }: ReadReplyInput): ReadReply {
  const split = splitReply(response, keepReasoning);
  const calls = response.toolCalls ?? [];
  const cut = response.finishReason === "length";
  const notes = cut ? [renderPrompt(loadPrompt("native-cut-reply"), { max_tokens: String(maxTokens) })] : [];
  const history = { role: "assistant" as const, content: split.historyText, ...(calls.length > 0 ? { toolCalls: calls } : {}) };
  const base = { ...(split.reasoning !== undefined ? { reasoning: split.reasoning } : {}), words: split.text.trim(), history, notes };

  if (calls.length > 0) return { ...base, actions: calls.map((call, index) => actionOf(call, index, toolNames)) };

  const noCall = (found: string, why: string) => ({
    text: renderPrompt(loadPrompt("native-no-call"), { found, answer_rule: answerRule(finalAnswerTool) }),
    why,
  });
  if (finalAnswerTool === undefined && base.words !== "" && !cut) return { ...base, actions: [], withoutActions: { answer: base.words } };
  const withoutActions =
    base.words === ""
      ? noCall(split.reasoning !== undefined ? "held only reasoning" : "was empty", split.reasoning !== undefined ? "reasoning only" : "empty reply")
      : cut
        ? noCall(`was cut at the ${maxTokens}-token limit`, "cut reply")
        : noCall("held only text", "text only");
  return { ...base, actions: [], withoutActions };
}

function actionOf(call: ToolCall, index: number, toolNames: ReadonlySet<string>): Action {
  const { id, name, arguments: raw } = call;
  if (!toolNames.has(name)) {
    const known = [...toolNames].sort().join(", ");
    return { kind: "invalid_tool_call", index, id, ...(name !== "" ? { name } : {}), raw, error: `there is no tool named '${name}'; the tools are: ${known}.` };
  }
  if (raw.trim() === "") return { kind: "tool_call", index, id, name, arguments: {}, raw };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { kind: "invalid_tool_call", index, id, name, raw, error: `the arguments are not valid JSON (${(error as Error).message}); send them as one JSON object.` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { kind: "invalid_tool_call", index, id, name, raw, error: `the arguments must be a JSON object of named arguments, not ${Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`}.` };
  }
  return { kind: "tool_call", index, id, name, arguments: value, raw };
}
