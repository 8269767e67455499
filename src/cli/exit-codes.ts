/**
 * Exit codes of the `rlmkit` command line:
 *
 * | code | meaning |
 * | ---- | ------- |
 * | 0 | answered (`ask`: a FINAL answer), or the command succeeded |
 * | 1 | error: bad flags or configuration, missing repository, unreachable model server, failed session |
 * | 2 | not answered: a limit stopped the session (iterations, time, budget), or the model never wrote runnable code |
 * | 3 | `replay` ran but did not reproduce the recorded answer |
 * | 130 | interrupted: Ctrl-C (SIGINT) stopped the command |
 */
export const EXIT_OK = 0;
/** See {@link EXIT_OK}. */
export const EXIT_ERROR = 1;
/** See {@link EXIT_OK}. */
export const EXIT_NOT_ANSWERED = 2;
/** See {@link EXIT_OK}. */
export const EXIT_NOT_REPRODUCED = 3;

/** See {@link EXIT_OK}: 128 + SIGINT, as shells report a process stopped by Ctrl-C. */
export const EXIT_INTERRUPTED = 130;

/** Maps a session status to an exit code: `final` → 0, a limit or `no_code` → 2, `error` → 1. */
export function exitCodeForStatus(status: string): number {
  if (status === "final") return EXIT_OK;
  if (status === "max_iterations" || status === "timeout" || status === "budget_exceeded" || status === "no_code") return EXIT_NOT_ANSWERED;
  return EXIT_ERROR;
}
