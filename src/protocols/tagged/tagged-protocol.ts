import type { Protocol, ProtocolRequestFields, PromptSetup, ReadReplyInput } from "../../engine/protocol.ts";
import { loadPrompt } from "../../prompts/prompts.ts";
import { FAKED_RESULT_STOP } from "../json/json-protocol.ts";
import { readTextReply } from "../text-calls/read-text-reply.ts";
import { renderTextResults } from "../text-calls/render-text-results.ts";
import { textSystemPrompt } from "../text-calls/text-prompt.ts";

/** Options of {@link createTaggedProtocol}. */
export interface TaggedProtocolOptions {
  /**
   * Ask the server to stop at each tool's closing tag (`</name>`), so a reply ends
   * with its call and nothing is written before the result comes back: one call per
   * reply, and the prompt says so. Default true. Set it false for a provider that takes
   * few stop sequences (OpenAI's API takes four): replies may then hold several calls.
   */
  readonly stopAtClosingTag?: boolean;
}

/**
 * The `tagged` protocol: the model writes `<tool_name>{...}</tool_name>` blocks inside
 * its prose, the JSON bare or in a ```json block; only the tags of registered tools are
 * calls, and the text around them is the model's words. Tool contracts are rendered
 * into the system prompt as Markdown — heading, description, parameters with
 * required/optional, an example call (`prompts/tagged-system.md`, `prompts/tagged-tool.md`).
 * Results come back as one user message with `Tool Result (name):` per call. Every turn
 * asks the server to stop at `Tool Result (` and, by default, at each closing tag (a
 * block the stop sequence cut before its closing tag counts when its JSON is whole).
 *
 * @example
 * await runSession({ question, model, repo: ".", protocol: "tagged" });
 * await runSession({ question, model, protocol: createTaggedProtocol({ stopAtClosingTag: false }) });
 */
export function createTaggedProtocol({ stopAtClosingTag = true }: TaggedProtocolOptions = {}): Protocol {
  return {
    name: "tagged",
    systemPrompt: (setup: PromptSetup) =>
      textSystemPrompt(setup, {
        system: "tagged-system",
        tool: "tagged-tool",
        call: (tool, args) => `<${tool.name}>\n\`\`\`json\n${JSON.stringify(args, null, 2)}\n\`\`\`\n</${tool.name}>`,
        slots: { calls_per_reply: loadPrompt(stopAtClosingTag ? "tagged-one-call" : "tagged-several-calls") },
      }),
    requestFields: (setup: PromptSetup): ProtocolRequestFields => ({
      stop: [...(stopAtClosingTag ? setup.tools.map((tool) => `</${tool.name}>`) : []), FAKED_RESULT_STOP],
    }),
    readReply: (input: ReadReplyInput) => readTextReply("tagged", input),
    renderResults: renderTextResults,
  };
}
