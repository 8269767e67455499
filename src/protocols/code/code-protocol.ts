import type { ActionOutcome, Protocol } from "../../engine/protocol.ts";
import { renderCodeSystemPrompt } from "./code-prompt.ts";
import { formatFeedback, formatToolOutcome } from "./format-feedback.ts";
import { readCodeReply } from "./read-code-reply.ts";

/**
 * The `code` protocol (the default): the model writes fenced JavaScript blocks;
 * tool calls inside them are intercepted and run in the host, the rest runs in the
 * sandbox, and an executed `FINAL(answer)` answers. What the blocks did goes back as
 * one user message, block by block (`formatFeedback`).
 */
export const codeProtocol: Protocol = {
  name: "code",
  systemPrompt: renderCodeSystemPrompt,
  readReply: readCodeReply,
  renderResults(outcomes: readonly ActionOutcome[], notes: readonly string[]) {
    const parts = outcomes.map((outcome) => ("report" in outcome ? formatFeedback([outcome.report]) : formatToolOutcome(outcome)));
    return [{ role: "user", content: [...parts, ...notes].join("\n\n") }];
  },
};
