/**
 * The words one language uses for the claims the deterministic detectors look
 * for. Each entry is a case-insensitive, Unicode-aware regular expression
 * matched against one sentence of the model's prose.
 */
export interface PhraseSet {
  /** The language, as a BCP 47 tag (`en`, `de`, `fr`, `es`). */
  readonly language: string;
  /** A commitment to act now or next ("I'll check", "Lass mich nachsehen"). */
  readonly promise: readonly RegExp[];
  /** Data presented as obtained from a tool or a run ("I found", "The file contains"). */
  readonly presented: readonly RegExp[];
  /** A stated result of code or a call ("This prints 42", "Output:"). */
  readonly outputClaim: readonly RegExp[];
  /** A stated answer ("The answer is", "Final answer:"). */
  readonly answerClaim: readonly RegExp[];
  /** A claim that a sub-call, child session or background task was started. */
  readonly spawnClaim: readonly RegExp[];
  /** An acknowledgement that something failed or is missing. */
  readonly acknowledgesFailure: readonly RegExp[];
  /** A negation near a claim that turns it around ("I have not checked"). */
  readonly negation: RegExp;
}

// `\b` is ASCII-only in JavaScript even with the `u` flag, so "échoué" or "über" would never start a word.
const BOUNDARY = String.raw`(?:(?<![\p{L}\p{N}_])(?=[\p{L}\p{N}_])|(?<=[\p{L}\p{N}_])(?![\p{L}\p{N}_]))`;

/** A case-insensitive phrase pattern whose `\b` is a Unicode word boundary. */
export function phrase(source: string): RegExp {
  return new RegExp(source.replaceAll(String.raw`\b`, BOUNDARY), "iu");
}
