/**
 * Composed hooks broke a rule of the composition: a middleware called `next()`
 * more than once. A host fault (the hook's code is wrong), so the session that
 * ran the hooks ends with an `error` event and status `error`.
 */
export class HookInvariantError extends Error {
  override readonly name = "HookInvariantError";
  /** The position of the offending middleware in the composed list. */
  readonly index: number;

  constructor({ index, message }: { index: number; message: string }) {
    super(message);
    this.index = index;
  }
}
