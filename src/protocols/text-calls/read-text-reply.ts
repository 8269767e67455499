import type { Action, ReadReply, ReadReplyInput } from "../../engine/protocol.ts";
import { loadPrompt, renderPrompt } from "../../prompts/prompts.ts";
import { readReplyText as splitReply } from "../reply-reasoning.ts";
import { parseToolCalls } from "../../toolcalls/parse-tool-calls.ts";
import type { ToolCallProtocol } from "../../toolcalls/tool-call-event.ts";
import { answerRule } from "../native/native-prompt.ts";

const FAKED_RESULT = /tool result \(/i;
const EMPTY_FENCE = /^ {0,3}(`{3,}|~{3,})[^\n`]*\n(?:[ \t]*\n)*? {0,3}\1[ \t]*$/gm;

/**
 * Reads a reply of a text protocol (`json` or `tagged`): reasoning out first
 * (`splitReasoning`: calls written while thinking never run), then the calls, in
 * order, as actions (`tool_call`, or `invalid_tool_call` with the parser's error).
 *
 * The model cannot fake a result: from text shaped like `Tool Result (` on, nothing of
 * the reply is a call, its words or its history, and the model is told. Text after
 * the last call is not used either (it was written before the results came) and is
 * reported in the notes. A reply with no call is the answer (its words), unless the
 * session answers through `finalAnswerTool`, or it was empty, cut, or faked a result:
 * then the model is told what to do.
 */
export function readTextReply(protocol: ToolCallProtocol, { response, keepReasoning, maxTokens, toolNames, finalAnswerTool }: ReadReplyInput): ReadReply {
  const split = splitReply(response, keepReasoning);
  const faked = FAKED_RESULT.exec(split.text);
  const events = parseToolCalls(split.text, { protocol, tools: [...toolNames].map((name) => ({ name })) });
  const actions: Action[] = [];
  const words: string[] = [];
  let afterLastCall = "";
  let offset = 0;
  for (const event of events) {
    const start = offset;
    offset += event.type === "text" ? event.text.length : event.raw.length;
    if (faked && start >= faked.index) break;
    if (event.type === "text") {
      const text = faked && offset > faked.index ? event.text.slice(0, faked.index - start) : event.text;
      words.push(text);
      afterLastCall += text;
      continue;
    }
    afterLastCall = "";
    const index = actions.length;
    const id = `call_${index + 1}`;
    actions.push(
      event.type === "tool_call"
        ? { kind: "tool_call", index, id, name: event.name, arguments: event.arguments, raw: event.raw }
        : { kind: "invalid_tool_call", index, id, ...(event.name !== undefined ? { name: event.name } : {}), raw: event.raw, error: event.error },
    );
  }

  const cut = response.finishReason === "length";
  const notes: string[] = [];
  if (faked) notes.push(renderPrompt(loadPrompt("text-faked-result"), { found: split.text.slice(faked.index, faked.index + 40).split("\n")[0]! }));
  else if (actions.length > 0 && cleanWords(afterLastCall) !== "") notes.push(loadPrompt("text-after-calls"));
  if (cut) notes.push(renderPrompt(loadPrompt("native-cut-reply"), { max_tokens: String(maxTokens) }));

  let kept = faked ? split.text.slice(0, faked.index).trimEnd() : split.text;
  // A stop sequence took the closing tag: the history shows the call closed, as the model should write it.
  const last = actions.at(-1);
  if (protocol === "tagged" && last?.kind === "tool_call" && !last.raw.trimEnd().endsWith(`</${last.name}>`) && kept.endsWith(last.raw)) kept = `${kept.trimEnd()}\n</${last.name}>`;
  const history = { role: "assistant" as const, content: split.historyText.slice(0, split.historyText.length - split.text.length) + kept };
  const base = { ...(split.reasoning !== undefined ? { reasoning: split.reasoning } : {}), words: cleanWords(words.join("")), history };
  if (actions.length > 0) return { ...base, actions, notes };

  const noCall = (found: string, why: string) => ({
    text: [renderPrompt(loadPrompt("native-no-call"), { found, answer_rule: answerRule(finalAnswerTool) }), ...notes].join("\n\n"),
    why,
  });
  if (finalAnswerTool === undefined && base.words !== "" && !cut && !faked) return { ...base, actions: [], notes, withoutActions: { answer: base.words } };
  const withoutActions = faked
    ? noCall("wrote a tool result itself", "faked tool result")
    : base.words === ""
      ? noCall(split.reasoning !== undefined ? "held only reasoning" : "was empty", split.reasoning !== undefined ? "reasoning only" : "empty reply")
      : cut
        ? noCall(`was cut at the ${maxTokens}-token limit`, "cut reply")
        : noCall("held only text", "text only");
  return { ...base, actions: [], notes: [], withoutActions };
}

/** The model's words: without the fences its calls leave empty, and without runs of blank lines. */
function cleanWords(text: string): string {
  return text.replace(EMPTY_FENCE, "").replace(/\n{3,}/g, "\n\n").trim();
}
