/** Default number of model turns in a session. Kept free of imports so that light callers (the CLI's configuration) need not load the session. */
export const DEFAULT_MAX_ITERATIONS = 20;
