import { expect, test } from "vitest";
import { mapFinishReason } from "../../src/model/index.ts";

test.for([
  ["stop", "stop"],
  ["eos", "stop"], // llama.cpp and some vLLM builds
  ["end_turn", "stop"], // Anthropic-style gateways
  ["length", "length"],
  ["max_tokens", "length"],
  ["content_filter", "content-filter"],
  ["error", "error"], // OpenRouter when the upstream provider fails mid-answer
  ["tool_calls", "tool-calls"],
  ["function_call", "tool-calls"], // the legacy functions API
  ["tool_use", "tool-calls"], // Anthropic-style gateways
  ["abort", "other"], // vLLM when the request was cancelled
  [null, "other"],
  [undefined, "other"],
] as const)("maps %s to %s", ([raw, expected]) => {
  expect(mapFinishReason(raw)).toBe(expected);
});
