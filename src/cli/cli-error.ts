/**
 * A failure the command line reports as one line (prefixed `rlmkit:`) without a
 * stack trace: a missing repository, an unreadable file, a missing model name.
 */
export class CliError extends Error {
  override readonly name = "CliError";
  /** The process exit code to use. Default 1. */
  readonly exitCode: number;

  constructor(message: string, { exitCode = 1, cause }: { exitCode?: number; cause?: unknown } = {}) {
    super(message, { cause });
    this.exitCode = exitCode;
  }
}
