/** Default number of model turns in a session. Kept free of imports so that light callers (the CLI's configuration) need not load the session. */
export const DEFAULT_MAX_ITERATIONS = 20;
/** Default completion token limit of one model turn, sent as `max_tokens`. */
export const DEFAULT_MAX_TOKENS = 4_096;
/** Default number of nudges in a row for replies without runnable code before a session ends with status `no_code`. */
export const DEFAULT_MAX_NUDGES = 2;
