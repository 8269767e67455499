import type { ScriptedModel } from "../../src/index.ts";

/** A model reply holding one ```js block with `code`. */
export const js = (code: string): string => "```js\n" + code + "\n```";

/** The last message of the model's `request`-th request: the feedback the session sent after the previous turn. */
export function feedbackOf(model: ScriptedModel, request: number): string {
  const messages = model.requests[request].messages;
  return messages[messages.length - 1].content;
}
