import { ModelCallError } from "./model-call-error.ts";

/** Fields of a {@link ToolsUnsupportedError}. */
export interface ToolsUnsupportedErrorOptions {
  /** The server's base URL, as configured. */
  readonly baseURL: string;
  /** The model name requested. */
  readonly model: string;
  /** The HTTP status of the refusal (Ollama and vLLM answer 400, llama.cpp 500). */
  readonly status: number;
  /** The server's own words, in one line. */
  readonly detail?: string;
  /** Requests sent, retries of earlier failures included. Default 1. */
  readonly attempts?: number;
  readonly cause?: unknown;
}

/**
 * The server refused a request because it carried `tools`: the model (Ollama: "… does
 * not support tools") or the server's set-up (llama.cpp without `--jinja`, vLLM without
 * `--enable-auto-tool-choice`) has no tool calling. Never retried: the same request
 * fails the same way. The `native` protocol answers it by writing calls in text (the
 * `json` protocol) instead. A {@link ModelCallError} with `failure: "status"`, so code
 * that handles model failures in general handles this one too.
 */
export class ToolsUnsupportedError extends ModelCallError {
  override readonly name: string = "ToolsUnsupportedError";

  constructor({ baseURL, model, status, detail, attempts = 1, cause }: ToolsUnsupportedErrorOptions) {
    super({
      failure: "status",
      baseURL,
      model,
      attempts,
      status,
      ...(detail !== undefined ? { detail } : {}),
      retryable: false,
      cause,
      message:
        `The model server at ${baseURL} does not take tools for model '${model}' (${status}${detail ? `: ${detail}` : ""}). ` +
        "Use a protocol that writes tool calls in text (--protocol json or tagged), a model with tool support, " +
        "or turn tool calling on in the server (llama.cpp: --jinja; vLLM: --enable-auto-tool-choice --tool-call-parser NAME).",
    });
  }
}
