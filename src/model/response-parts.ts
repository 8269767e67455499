import type { ModelResponse, ModelStreamPart } from "./model-client.ts";

/** How to cut a whole response into stream parts. */
export interface ResponsePartsOptions {
  /** The text's deltas, in order (they must join to the text). Default: the whole text in one delta. */
  readonly textChunks?: readonly string[];
  /** Per tool call, its arguments' deltas (they must join to the arguments). Default: each call's arguments in one delta. */
  readonly argumentChunks?: readonly (readonly string[] | undefined)[];
}

/**
 * The stream parts of a response known in whole (a scripted or recorded reply):
 * reasoning, text, each tool call (its first delta carrying id and name), then
 * `finish` with the response itself. Joining the deltas gives back the response.
 */
export function responseParts(response: ModelResponse, { textChunks, argumentChunks = [] }: ResponsePartsOptions = {}): ModelStreamPart[] {
  const parts: ModelStreamPart[] = [];
  if (response.reasoning) parts.push({ type: "reasoning-delta", text: response.reasoning });
  for (const text of textChunks ?? [response.text]) if (text !== "") parts.push({ type: "text-delta", text });
  (response.toolCalls ?? []).forEach((call, index) => {
    const [first = "", ...rest] = argumentChunks[index] ?? [call.arguments];
    parts.push({ type: "tool-call-delta", index, id: call.id, name: call.name, argumentsDelta: first });
    for (const argumentsDelta of rest) parts.push({ type: "tool-call-delta", index, argumentsDelta });
  });
  parts.push({ type: "finish", response });
  return parts;
}
