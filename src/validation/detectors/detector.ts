import type { NavTools } from "../../nav/create-nav-tools.ts";
import type { JsonValue } from "../../core/json-value.ts";
import type { Tool } from "../../tools/tool.ts";
import type { ReplyParts } from "../reply-parts.ts";
import type { ValidationInput } from "../validation-types.ts";

/** What a detector is given: the round's input, the reply taken apart, the tools and the repository. */
export interface DetectorContext {
  readonly input: ValidationInput;
  readonly parts: ReplyParts;
  readonly tools: readonly Tool[];
  /** Opened on `input.repo` when the round has one. */
  readonly repo?: NavTools;
  /** The answer as text (`input.answer`, or the reply's prose when there is no answer). */
  readonly answerText?: string;
}

/** A suspected violation, before the second stage confirms or suppresses it. */
export interface Detection {
  /** What was found, for the model and the log. */
  readonly reason: string;
  /** The words that triggered it: the second stage grounds these against the ledger. */
  readonly evidence?: string;
  /** Slot values for the correction template (`tool_name`, `tool_schema`, `errors`, …). */
  readonly slots?: Readonly<Record<string, string>>;
  /** The tool result with secrets masked (`credential_redaction`). */
  readonly redacted?: JsonValue;
}

/** A deterministic detector: finds at most one violation of its hook in a round. */
export type Detector = (context: DetectorContext) => Detection | undefined | Promise<Detection | undefined>;
