import type { FinishReason } from "./model-client.ts";

/**
 * Maps a server's raw finish reason to the short union the session loop needs.
 * Covers the OpenAI values and the variants local servers send
 * (`eos`, `end_turn`, `max_tokens`, `tool_use`, …); anything else, or none, is `"other"`.
 */
export function mapFinishReason(raw: string | null | undefined): FinishReason {
  switch (raw) {
    case "stop":
    case "eos":
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "length":
    case "max_tokens":
    case "model_length":
      return "length";
    case "tool_calls":
    case "function_call":
    case "tool_use":
      return "tool-calls";
    case "content_filter":
      return "content-filter";
    case "error":
      return "error";
    default:
      return "other";
  }
}
