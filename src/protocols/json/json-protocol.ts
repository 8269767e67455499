import type { Protocol, ProtocolRequestFields, PromptSetup, ReadReplyInput } from "../../engine/protocol.ts";
import { readTextReply } from "../text-calls/read-text-reply.ts";
import { renderTextResults } from "../text-calls/render-text-results.ts";
import { textSystemPrompt } from "../text-calls/text-prompt.ts";

/** The stop sequence of the text protocols: a model that starts writing a result of its own is stopped there. */
export const FAKED_RESULT_STOP = "Tool Result (";

/**
 * The `json` protocol: the model writes `{"tool": "...", "arguments": {...}}` objects
 * in its text, bare or in a ```json block, read by {@link parseToolCalls} (brace
 * scanning, repair of what models get wrong, never JSON in other code or without a
 * `"tool"` key naming a tool). Calls run in order; their results come back as one user
 * message with `Tool Result (name):` per call. The system prompt describes each tool
 * from its JSON Schema (`prompts/json-system.md`, `prompts/json-tool.md`); every turn
 * asks the server to stop at `Tool Result (`. Works with any model that writes text.
 *
 * @example
 * await runSession({ question, model, repo: ".", protocol: "json" });
 */
export function createJsonProtocol(): Protocol {
  return {
    name: "json",
    systemPrompt: (setup: PromptSetup) =>
      textSystemPrompt(setup, {
        system: "json-system",
        tool: "json-tool",
        call: (tool, args) => JSON.stringify({ tool: tool.name, arguments: args }),
      }),
    requestFields: (): ProtocolRequestFields => ({ stop: [FAKED_RESULT_STOP] }),
    readReply: (input: ReadReplyInput) => readTextReply("json", input),
    renderResults: renderTextResults,
  };
}
