/**
 * A `ScriptedModel` was asked for more replies than it was given. The message
 * says how many were scripted and shows the start of the last user message, so
 * the test author sees where the script fell short.
 */
export class ScriptExhaustedError extends Error {
  override readonly name = "ScriptExhaustedError";
  /** How many replies the script held. */
  readonly scriptedReplies: number;
  /** The last user message of the request that found the script empty (full text). */
  readonly lastUserMessage: string | undefined;

  /** The 1-based number of the request that found the script empty. */
  readonly requestNumber: number;

  constructor({ scriptedReplies, requestNumber, lastUserMessage }: { scriptedReplies: number; requestNumber: number; lastUserMessage: string | undefined }) {
    const replies = `${scriptedReplies} repl${scriptedReplies === 1 ? "y" : "ies"}`;
    const shown = lastUserMessage === undefined ? "no user message" : `last user message: ${preview(lastUserMessage)}`;
    super(`ScriptedModel ran out of replies: request ${requestNumber} arrived but the script holds ${replies} (${shown}). Add a reply to the script.`);
    this.scriptedReplies = scriptedReplies;
    this.requestNumber = requestNumber;
    this.lastUserMessage = lastUserMessage;
  }
}

const PREVIEW_CHARS = 120;

function preview(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(oneLine.length > PREVIEW_CHARS ? `${oneLine.slice(0, PREVIEW_CHARS)}…` : oneLine);
}
