/** How deep a call's arguments may nest: deeper is refused, so nothing downstream (validation, events, traces) recurses without bound. */
export const MAX_ARGUMENT_DEPTH = 64;

/** True when `value` has arrays or objects nested more than `limit` deep (checked without recursion). */
export function deeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== "object" || item === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}
