/** Values walked before {@link jsonChars} gives up and measures `JSON.stringify` instead. */
const WALK_BUDGET = 2_000_000;

/**
 * About how many characters `value` takes as JSON, without building the JSON:
 * a large context is sized without a second copy of it. Strings count their
 * length plus quotes (escapes are not counted); other scalars count 8. Walked
 * with a stack, so any depth is fine. A value with more than two million parts
 * (or a cycle, which never ends) is measured with `JSON.stringify`, which
 * throws a TypeError for a cycle.
 */
export function jsonChars(value: unknown): number {
  let total = 0;
  let walked = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    if (++walked > WALK_BUDGET) return JSON.stringify(value).length;
    const item = stack.pop();
    if (typeof item === "string") total += item.length + 2;
    else if (item === null || typeof item !== "object") total += 8;
    else if (Array.isArray(item)) {
      total += 2 + item.length;
      for (const child of item) stack.push(child);
    } else {
      total += 2;
      for (const key of Object.keys(item)) {
        total += key.length + 4;
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return total;
}

/**
 * Bytes a persistent value is budgeted in an isolate: a string two a character,
 * anything else three a character of its JSON (objects cost more than their text).
 */
export function persistentBytes(value: unknown): number {
  return typeof value === "string" ? value.length * 2 : jsonChars(value) * 3;
}
