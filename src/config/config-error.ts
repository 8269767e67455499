/**
 * The configuration is invalid: an unknown key, a wrong type, an unreadable file or
 * a bad environment value. The message is one or more lines a user can act on,
 * each naming where the bad value came from, e.g.
 * `rlmkit.config.json: unknown key 'modle' (did you mean 'model'?)`.
 */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  /** Where the bad value came from: a file path, an environment variable or a flag. */
  readonly origin: string;
  /** One entry per problem found. */
  readonly problems: readonly string[];

  constructor(origin: string, problems: readonly string[], options: { cause?: unknown } = {}) {
    super(problems.map((problem) => `${origin}: ${problem}`).join("\n"), options);
    this.origin = origin;
    this.problems = problems;
  }
}
