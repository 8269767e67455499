import type { ChatMessage, TokenUsage } from "./model-client.ts";

/** Characters per token assumed by the estimates: about four for English text and code with common tokenizers. */
export const CHARS_PER_TOKEN = 4;

/**
 * Estimates a token count from text length: `ceil(characters / 4)`. Used when a
 * server reports no usage, and by `ScriptedModel`. Good enough for budgets and
 * traces; not a tokenizer.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/**
 * Estimates the usage of one call: the prompt is the sum of the messages'
 * estimates (their tool calls' names and arguments included), the completion the
 * reply's estimate (see {@link estimateTokens}); pass a reply's tool calls' text in
 * `completionText` too.
 */
export function estimateUsage(messages: readonly ChatMessage[], completionText: string): TokenUsage {
  let promptTokens = 0;
  for (const message of messages) {
    promptTokens += estimateTokens(message.content);
    for (const call of message.toolCalls ?? []) promptTokens += estimateTokens(call.name) + estimateTokens(call.arguments);
  }
  return { promptTokens, completionTokens: estimateTokens(completionText) };
}
