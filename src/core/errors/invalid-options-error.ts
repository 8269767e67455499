/**
 * An option passed to a public function is invalid: `runSession` rejects with
 * it before anything starts (no sandbox, no model call, no event). `option`
 * names the option (`maxIterations`, `systemPromptTemplate`, `budget.maxTokens`,
 * …); the message says what would have been valid. A `TypeError`, so code
 * that already catches `TypeError` for bad arguments keeps working.
 *
 * @example
 * try { await runSession(options); } catch (error) {
 *   if (error instanceof InvalidOptionsError) console.error(`fix ${error.option}: ${error.message}`);
 * }
 */
export class InvalidOptionsError extends TypeError {
  override readonly name = "InvalidOptionsError";
  /** The option at fault, e.g. `systemPromptTemplate`. */
  readonly option: string;

  constructor({ option, message, cause }: { option: string; message: string; cause?: unknown }) {
    super(message, cause === undefined ? undefined : { cause });
    this.option = option;
  }
}
