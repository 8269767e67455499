import type { JsonValue } from "../core/json-value.ts";
import { estimateUsage } from "./estimate-tokens.ts";
import type { ChatMessage, FinishReason, ModelClient, ModelRequest, ModelResponse, ModelStreamPart, TokenUsage, ToolCall, ToolChoice, ToolSpec } from "./model-client.ts";
import { responseParts } from "./response-parts.ts";
import { ScriptExhaustedError } from "./script-exhausted-error.ts";

/** A tool call in a scripted reply. */
export interface ScriptedToolCall {
  /** Default `call_<request number>_<call index>`, e.g. `call_1_0`. */
  readonly id?: string;
  readonly name: string;
  /** The arguments as raw text (sent as written, malformed or not), or a value sent as its JSON. Default `{}`. */
  readonly arguments?: string | JsonValue;
  /** Provider extras kept on the call (see `ToolCall.extra`). */
  readonly extra?: Readonly<Record<string, JsonValue>>;
  /** `stream()` only: the arguments' deltas, in order; they must join to the arguments' text. */
  readonly chunks?: readonly string[];
}

/** A scripted reply with more than text: reasoning, tool calls, a finish reason, stream chunks. */
export interface ScriptedTurn {
  /** The reply text. Default: `chunks` joined, else empty. */
  readonly text?: string;
  /** Reasoning sent apart from the text (as `ModelResponse.reasoning`). */
  readonly reasoning?: string;
  readonly toolCalls?: readonly ScriptedToolCall[];
  /** Default `"tool-calls"` when there are tool calls, else `"stop"`. */
  readonly finishReason?: FinishReason;
  /** `stream()` only: the text's deltas, in order; they must join to `text`. Default: the whole text in one. */
  readonly chunks?: readonly string[];
}

/**
 * One scripted reply: the text itself, a {@link ScriptedTurn}, or a function that
 * builds either from the request (e.g. to answer with something found in
 * `request.messages`). A function that throws or rejects makes that call fail,
 * which scripts model errors.
 */
export type ScriptedReply = string | ScriptedTurn | ((request: ModelRequest) => string | ScriptedTurn | Promise<string | ScriptedTurn>);

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
  readonly tools?: readonly ToolSpec[];
  readonly toolChoice?: ToolChoice;
  readonly stop?: readonly string[];
}

/**
 * A model that answers from a list of replies, in order, and records every
 * request it receives. It drives sessions in tests and replays without a
 * server: the session code cannot tell it from a real model. A reply may hold
 * tool calls (as a provider's tool-calling API returns them) and reasoning, and
 * `stream()` hands it out in the chunks the script gives.
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
 *
 * // Tool calls, streamed in chunks:
 * new ScriptedModel([{ toolCalls: [{ name: "nav_search", arguments: '{"query": "retry"}', chunks: ['{"que', 'ry": "retry"}'] }] }]);
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
      throw new TypeError("ScriptedModel: replies must be an array of strings, scripted turns or functions.");
    }
    replies.forEach((reply, index) => {
      if (typeof reply !== "string" && typeof reply !== "function" && (typeof reply !== "object" || reply === null || Array.isArray(reply))) {
        throw new TypeError(`ScriptedModel: reply ${index} is ${reply === null ? "null" : typeof reply}; use a string, a scripted turn ({ text, toolCalls, … }) or a function (request) => string.`);
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
    return (await this.#answer(request)).response;
  }

  /** The next reply as stream parts: reasoning, the text in its scripted chunks, each tool call in its chunks, then `finish`. */
  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamPart> {
    const { response, turn } = await this.#answer(request);
    yield* responseParts(response, { ...(turn.chunks ? { textChunks: turn.chunks } : {}), argumentChunks: (turn.toolCalls ?? []).map((call) => call.chunks) });
  }

  async #answer(request: ModelRequest): Promise<{ response: ModelResponse; turn: ScriptedTurn }> {
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
    const index = this.#next++;
    const reply = this.#replies[index];
    const built = typeof reply === "function" ? await reply(request) : reply;
    const turn = checkedTurn(built, index);
    const text = turn.text ?? turn.chunks?.join("") ?? "";
    const toolCalls: ToolCall[] = (turn.toolCalls ?? []).map((call, callIndex) => ({
      id: call.id ?? `call_${this.#requests.length}_${callIndex}`,
      name: call.name,
      arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments ?? {}),
      ...(call.extra ? { extra: call.extra } : {}),
    }));
    checkChunks(turn, text, toolCalls, index);
    const callsText = toolCalls.map((call) => `${call.name}${call.arguments}`).join("");
    const usage = this.#usage ?? estimateUsage(request.messages, `${turn.reasoning ?? ""}${text}${callsText}`);
    const finishReason = turn.finishReason ?? (toolCalls.length > 0 ? "tool-calls" : "stop");
    const response: ModelResponse = {
      text,
      ...(turn.reasoning ? { reasoning: turn.reasoning } : {}),
      ...(toolCalls.length > 0 ? { toolCalls } : {}),
      usage: { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens },
      ...(this.#usage ? {} : { usageEstimated: true }),
      finishReason,
      rawFinishReason: finishReason === "tool-calls" ? "tool_calls" : finishReason,
      model: this.modelId,
    };
    return { response, turn };
  }
}

function checkedTurn(built: unknown, index: number): ScriptedTurn {
  if (typeof built === "string") return { text: built };
  if (typeof built === "object" && built !== null && !Array.isArray(built)) return built as ScriptedTurn;
  throw new TypeError(`ScriptedModel: reply ${index} returned ${built === null ? "null" : typeof built}, not a string or a scripted turn.`);
}

function checkChunks(turn: ScriptedTurn, text: string, toolCalls: readonly ToolCall[], index: number): void {
  if (turn.chunks && turn.chunks.join("") !== text) throw new TypeError(`ScriptedModel: reply ${index}'s chunks do not join to its text.`);
  (turn.toolCalls ?? []).forEach((call, callIndex) => {
    if (call.chunks && call.chunks.join("") !== toolCalls[callIndex].arguments) {
      throw new TypeError(`ScriptedModel: reply ${index}, tool call ${callIndex} (${call.name}): its chunks do not join to its arguments.`);
    }
  });
}

function record(request: ModelRequest): RecordedModelRequest {
  const messages = Object.freeze(
    request.messages.map((message) =>
      Object.freeze({
        role: message.role,
        content: message.content,
        ...(message.toolCalls ? { toolCalls: Object.freeze(message.toolCalls.map((call) => Object.freeze({ ...call }))) } : {}),
        ...(message.toolCallId !== undefined ? { toolCallId: message.toolCallId } : {}),
        ...(message.name !== undefined ? { name: message.name } : {}),
      }),
    ),
  );
  return Object.freeze({
    messages,
    ...(request.maxTokens !== undefined ? { maxTokens: request.maxTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.tools ? { tools: Object.freeze(request.tools.map((tool) => Object.freeze({ ...tool }))) } : {}),
    ...(request.toolChoice !== undefined ? { toolChoice: request.toolChoice } : {}),
    ...(request.stop ? { stop: Object.freeze([...request.stop]) } : {}),
  });
}
