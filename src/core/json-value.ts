/** A JSON value: what tools take and return, and what crosses the sandbox boundary. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
