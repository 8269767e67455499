/**
 * Guest code may not use names that start with this prefix: injected values and the
 * rewrite's own parameter live there. The interceptor rejects blocks that use it.
 * A module of its own, so that code that only needs the name (declaring a tool) does
 * not load the sandbox.
 */
export const RESERVED_PREFIX = "__rlm";
