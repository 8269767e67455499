import type { Protocol, PromptSetup, ProtocolRequestFields } from "../../engine/protocol.ts";
import type { ToolChoice } from "../../model/model-client.ts";
import { ToolsUnsupportedError } from "../../model/tools-unsupported-error.ts";
import { nativeSystemPrompt } from "./native-prompt.ts";
import { readNativeReply } from "./read-native-reply.ts";
import { renderToolMessages } from "./render-tool-messages.ts";

/** Options of {@link createNativeProtocol}. */
export interface NativeProtocolOptions {
  /** Sent as `tool_choice` on every turn. Default: none sent (the provider's default, `auto`; some servers refuse an explicit one). */
  readonly toolChoice?: ToolChoice;
  /**
   * The protocol to go on with when the server refuses tools (`ToolsUnsupportedError`):
   * the session then writes its calls in text. Default: none, the error stands.
   * `resolveProtocol("native")` passes the `json` protocol.
   */
  readonly fallback?: () => Protocol;
}

/**
 * The `native` protocol: the provider's own tool-calling API. Every tool of the session
 * is sent as a function tool with its JSON Schema (`tools`); the model's `tool_calls`
 * become actions (several per reply run in order), their results go back as `tool`
 * messages answering each call by id, and the assistant message keeps its calls
 * (with provider extras such as Gemini's thought signature). A reply with no call is
 * the answer, unless the session answers through a `finalAnswerTool`. When the server
 * refuses tools, the session goes on in `fallback` (the `json` protocol).
 *
 * @example
 * await runSession({ question, model, repo: ".", protocol: "native" });
 * await runSession({ question, model, repo: ".", protocol: createNativeProtocol({ toolChoice: "required" }), finalAnswerTool: "final_answer" });
 */
export function createNativeProtocol({ toolChoice, fallback }: NativeProtocolOptions = {}): Protocol {
  return {
    name: "native",
    systemPrompt: (setup: PromptSetup) => nativeSystemPrompt(setup, setup.finalAnswerTool),
    requestFields: (setup: PromptSetup): ProtocolRequestFields => ({
      tools: setup.tools.map(({ name, description, parameters }) => ({ name, description, parameters })),
      ...(toolChoice !== undefined ? { toolChoice } : {}),
    }),
    readReply: readNativeReply,
    renderResults: renderToolMessages,
    degradeOn: (error: unknown) => (error instanceof ToolsUnsupportedError && fallback ? fallback() : undefined),
  };
}
