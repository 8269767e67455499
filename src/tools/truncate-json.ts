import type { JsonValue } from "./json-schema.ts";

/**
 * Shrinks a JSON value until its serialization fits `maxChars`, keeping its
 * shape: long strings are cut, arrays lose trailing items, and objects shrink
 * their largest field first. Returns the value unchanged when it already fits.
 */
export function truncateJson(value: JsonValue, maxChars: number): { value: JsonValue; truncated: boolean; chars: number } {
  const chars = JSON.stringify(value).length;
  if (chars <= maxChars) return { value, truncated: false, chars };
  const shrunk = shrink(value, maxChars, chars);
  return { value: shrunk, truncated: true, chars };
}

/** `size` is the value's serialized length, when the caller has already measured it. */
function shrink(value: JsonValue, budget: number, size = JSON.stringify(value).length): JsonValue {
  if (size <= budget) return value;
  if (typeof value === "string") {
    const notice = `… [cut: ${value.length} characters in all]`;
    return value.slice(0, Math.max(0, budget - notice.length - 2)) + notice;
  }
  if (Array.isArray(value)) {
    let low = 0;
    let high = value.length;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (JSON.stringify(value.slice(0, mid)).length + 40 <= budget) low = mid;
      else high = mid - 1;
    }
    if (low === 0 && value.length > 0) return [shrink(value[0], budget - 40), `… [cut: ${value.length} items in all]`];
    return [...value.slice(0, low), `… [cut: ${value.length - low} more items]`];
  }
  if (value !== null && typeof value === "object") {
    const copy: { [key: string]: JsonValue } = { ...value };
    for (let round = 0; round < 50; round++) {
      const total = JSON.stringify(copy).length;
      if (total <= budget) break;
      let largest = "";
      let largestSize = -1;
      for (const [key, field] of Object.entries(copy)) {
        const fieldSize = JSON.stringify(field).length;
        if (fieldSize > largestSize) [largest, largestSize] = [key, fieldSize];
      }
      if (largestSize <= 2) break;
      copy[largest] = shrink(copy[largest], Math.max(0, largestSize - (total - budget) - 8), largestSize);
    }
    return copy;
  }
  return value;
}
