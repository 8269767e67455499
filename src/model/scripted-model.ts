import { estimateUsage } from "./estimate-tokens.ts";
import type { ChatMessage, ModelClient, ModelRequest, ModelResponse, TokenUsage } from "./model-client.ts";
import { ScriptExhaustedError } from "./script-exhausted-error.ts";

/**
 * One scripted reply: the text itself, or a function that builds it from the
 * request (e.g. to answer with something found in `request.messages`). A function
 * that throws or rejects makes that call fail, which scripts model errors.
 */
export type ScriptedReply = string | ((request: ModelRequest) => string | Promise<string>);

/** Options of a {@link ScriptedModel}. */
export interface ScriptedModelOptions {
  /** Reported as `modelId` and as the response's `model`. Default `"scripted"`. */
  readonly modelId?: string;
  readonly contextWindow?: number;
  /**
   * Usage reported for every reply. When absent, usage is estimated from text
   * length (`ceil(characters / 4)` for the prompt messages and the reply) and the
   * response is marked `usageEstimated: true`.
   */
  readonly usage?: TokenUsage;
}

/** A request as a {@link ScriptedModel} recorded it: a frozen copy, unaffected by later changes to the caller's arrays. */
export interface RecordedModelRequest {
  readonly messages: readonly ChatMessage[];
  readonly maxTokens?: number;
  readonly temperature?: number;
}

/**
 * A model that answers from a list of replies, in order, and records every
 * request it receives. It drives sessions in tests and replays without a
 * server: the session code cannot tell it from a real model.
 *
 * When a request arrives after the last reply was used, `complete` rejects with a
 * {@link ScriptExhaustedError} saying how many replies were scripted and showing
 * the start of the last user message. A request whose `signal` is already
 * aborted is recorded and rejects with the signal's reason without using a reply.
 *
 * @example
 * const model = new ScriptedModel([
 *   "```js\nconst info = nav_info()\nprint(info.files)\n```",
 *   (request) => `\`\`\`js\nFINAL(${JSON.stringify(request.messages.at(-1)?.content.length)})\n\`\`\``,
 * ]);
 * const result = await runSession({ question: "How many files?", model });
 * model.requests.length; // 2
 * model.requests[1].messages.at(-1)?.content; // the feedback of the first block
 */
export class ScriptedModel implements ModelClient {
  readonly modelId: string;
  readonly contextWindow?: number;
  readonly #replies: readonly ScriptedReply[];
  readonly #usage: TokenUsage | undefined;
  readonly #requests: RecordedModelRequest[] = [];
  #next = 0;

  constructor(replies: readonly ScriptedReply[], { modelId = "scripted", contextWindow, usage }: ScriptedModelOptions = {}) {
    if (!Array.isArray(replies)) {
      throw new TypeError("ScriptedModel: replies must be an array of strings or functions.");
    }
    replies.forEach((reply, index) => {
      if (typeof reply !== "string" && typeof reply !== "function") {
        throw new TypeError(`ScriptedModel: reply ${index} is ${reply === null ? "null" : typeof reply}; use a string or a function (request) => string.`);
      }
    });
    this.#replies = [...replies];
    this.modelId = modelId;
    if (contextWindow !== undefined) this.contextWindow = contextWindow;
    this.#usage = usage;
  }

  /** Every request received so far, in order, as frozen copies. */
  get requests(): readonly RecordedModelRequest[] {
    return this.#requests;
  }

  /** How many scripted replies have not been used yet. */
  get remaining(): number {
    return this.#replies.length - this.#next;
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    this.#requests.push(record(request));
    request.signal?.throwIfAborted();

    if (this.#next >= this.#replies.length) {
      const lastUser = request.messages.findLast((message) => message.role === "user");
      throw new ScriptExhaustedError({
        scriptedReplies: this.#replies.length,
        requestNumber: this.#requests.length,
        lastUserMessage: lastUser?.content,
      });
    }
    const reply = this.#replies[this.#next++];
    const text = typeof reply === "string" ? reply : await reply(request);
    if (typeof text !== "string") {
      throw new TypeError(`ScriptedModel: reply ${this.#next - 1} returned ${text === null ? "null" : typeof text}, not a string.`);
    }
    const usage = this.#usage ?? estimateUsage(request.messages, text);
    return {
      text,
      usage: { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens },
      ...(this.#usage ? {} : { usageEstimated: true }),
      finishReason: "stop",
      rawFinishReason: "stop",
      model: this.modelId,
    };
  }
}

function record(request: ModelRequest): RecordedModelRequest {
  const messages = Object.freeze(request.messages.map((message) => Object.freeze({ role: message.role, content: message.content })));
  return Object.freeze({
    messages,
    ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
  });
}
