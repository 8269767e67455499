import type { ChatCompletionCreateParamsBase, ChatCompletionMessageParam, ChatCompletionToolChoiceOption } from "openai/resources/chat/completions";
import type { ChatMessage, ModelRequest, ToolChoice } from "./model-client.ts";

/** Defaults a request falls back to. */
export interface RequestDefaults {
  readonly model: string;
  readonly maxTokens?: number;
  readonly temperature?: number;
}

/**
 * The chat completions body for a request, without `stream`: messages (tool calls
 * on assistant messages with their provider extras sent back as received, `tool`
 * messages with `tool_call_id`), `tools` as function tools, `tool_choice`, `stop`,
 * `max_tokens` and `temperature`.
 */
export function chatRequestBody(request: ModelRequest, defaults: RequestDefaults): ChatCompletionCreateParamsBase {
  const maxTokens = request.maxTokens ?? defaults.maxTokens;
  const temperature = request.temperature ?? defaults.temperature;
  const tools = request.tools && request.tools.length > 0 ? request.tools : undefined;
  return {
    model: defaults.model,
    messages: request.messages.map(messageParam),
    ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
    ...(tools ? { tools: tools.map(({ name, description, parameters }) => ({ type: "function" as const, function: { name, description, parameters } })) } : {}),
    ...(tools && request.toolChoice !== undefined ? { tool_choice: toolChoiceParam(request.toolChoice) } : {}),
    ...(request.stop && request.stop.length > 0 ? { stop: [...request.stop] } : {}),
  };
}

function messageParam(message: ChatMessage): ChatCompletionMessageParam {
  const { role, content } = message;
  if (role === "tool") {
    return { role, content, tool_call_id: message.toolCallId ?? "", ...(message.name !== undefined ? { name: message.name } : {}) } as ChatCompletionMessageParam;
  }
  if (role === "assistant" && message.toolCalls && message.toolCalls.length > 0) {
    return {
      role,
      // OpenAI's own replies carry `content: null` next to tool calls; some servers refuse "".
      content: content === "" ? null : content,
      tool_calls: message.toolCalls.map((call) => ({ ...call.extra, id: call.id, type: "function" as const, function: { name: call.name, arguments: call.arguments } })),
    };
  }
  return { role, content };
}

function toolChoiceParam(choice: ToolChoice): ChatCompletionToolChoiceOption {
  return typeof choice === "string" ? choice : { type: "function", function: { name: choice.name } };
}
