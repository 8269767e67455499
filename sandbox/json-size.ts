/**
 * About how many characters `value` takes as JSON, without building the JSON:
 * a large context is sized without a second copy of it. Strings count their
 * length plus quotes (escapes are not counted); other scalars count 8. Walked
 * with a stack, so any depth is fine.
 */
export function jsonChars(value: unknown): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
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
