import type { ChatMessage } from "../model/model-client.ts";

/**
 * When the history ends with an assistant message whose tool calls (a provider's
 * tool-calling API) did not run — a hook vetoed the reply or asked for another —
 * answers each call with a `tool` message saying so: providers refuse a history in
 * which a call has no answer. Does nothing after any other message.
 */
export function answerUnrunCalls(messages: ChatMessage[], reason: string): void {
  const last = messages.at(-1);
  if (last?.role !== "assistant" || !last.toolCalls || last.toolCalls.length === 0) return;
  for (const call of last.toolCalls) messages.push({ role: "tool", toolCallId: call.id, name: call.name, content: `Error: not run: ${reason}` });
}
