import type { Action, ReadReply, ReadReplyInput } from "../../engine/protocol.ts";
import type { ToolCall } from "../../model/model-client.ts";
import { loadPrompt, renderPrompt } from "../../prompts/prompts.ts";
import { deeperThan, MAX_ARGUMENT_DEPTH } from "../../toolcalls/argument-depth.ts";
import { isJsonObject, parseJsonText } from "../../toolcalls/parse-json-text.ts";
import { readReplyText as splitReply } from "../reply-reasoning.ts";
import { answerRule } from "./native-prompt.ts";

/**
 * Reads a reply of the provider's tool-calling API. Each of `response.toolCalls`
 * becomes an action, in order: a `tool_call` when its arguments parse as a JSON
 * object (empty arguments are `{}`; what small models get wrong, such as single quotes
 * or trailing commas, is repaired, except in the last call of a cut reply) nested at
 * most `MAX_ARGUMENT_DEPTH` deep, else an
 * `invalid_tool_call` whose error the model
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

  // The last call of a cut reply may be cut itself: only strict JSON counts there (a repair would complete it into a call never made).
  if (calls.length > 0) return { ...base, actions: calls.map((call, index) => actionOf(call, index, toolNames, !(cut && index === calls.length - 1))) };

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

function actionOf(call: ToolCall, index: number, toolNames: ReadonlySet<string>, repair: boolean): Action {
  const { id, name, arguments: raw } = call;
  if (!toolNames.has(name)) {
    const known = [...toolNames].sort().join(", ");
    return { kind: "invalid_tool_call", index, id, ...(name !== "" ? { name } : {}), raw, error: `there is no tool named '${name}'; the tools are: ${known}.` };
  }
  if (raw.trim() === "") return { kind: "tool_call", index, id, name, arguments: {}, raw };
  const parsed = parseJsonText(raw, { repair });
  if (!parsed.ok) return { kind: "invalid_tool_call", index, id, name, raw, error: `the arguments are not valid JSON (${parsed.error}); send them as one JSON object.` };
  const { value } = parsed;
  if (!isJsonObject(value)) {
    return { kind: "invalid_tool_call", index, id, name, raw, error: `the arguments must be a JSON object of named arguments, not ${Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`}.` };
  }
  if (deeperThan(value, MAX_ARGUMENT_DEPTH)) return { kind: "invalid_tool_call", index, id, name, raw, error: `the arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels; send a flatter JSON object.` };
  return { kind: "tool_call", index, id, name, arguments: value, raw };
}
