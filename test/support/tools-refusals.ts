import type { ScriptedHttpResponse } from "./openai-server.ts";

/**
 * How real servers refuse a request that carries `tools`, as their users reported
 * them (status and body copied from the cited threads), for the loopback server
 * to play back.
 */
export const TOOLS_REFUSALS: readonly { readonly label: string; readonly source: string; readonly response: ScriptedHttpResponse }[] = [
  {
    label: "Ollama, OpenAI-compatible endpoint: the model's template has no tools",
    source: "https://github.com/ollama/ollama/issues/6027 (curl -D - localhost:11434/v1/chat/completions)",
    response: { status: 400, body: { error: { message: "stablelm2:latest does not support tools", type: "api_error", param: null, code: null } } },
  },
  {
    label: "Ollama, registry model name, error as a bare string",
    source: "https://github.com/ollama/ollama/issues/14795 (Ollama API error 400)",
    response: { status: 400, body: { error: "registry.ollama.ai/library/Qwen3.5:0.8b does not support tools" } },
  },
  {
    label: "llama.cpp server started without --jinja (a 500, not to be retried)",
    source: "https://github.com/containers/ramalama/issues/988 and https://github.com/defilantech/LLMKube/issues/126 (500 tools param requires --jinja flag)",
    response: { status: 500, body: { error: { code: 500, message: "tools param requires --jinja flag", type: "server_error" } } },
  },
  {
    label: "llama.cpp server before --jinja existed",
    source: "https://github.com/ggml-org/llama.cpp/issues/10920",
    response: { status: 500, body: { error: { code: 500, message: "Unsupported param: tools", type: "server_error" } } },
  },
  {
    label: "vLLM started without --enable-auto-tool-choice (the message at the top level of the body)",
    source: "https://github.com/langchain4j/langchain4j/issues/3475",
    response: {
      status: 400,
      body: { object: "error", message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', type: "BadRequestError", param: null, code: 400 },
    },
  },
];
