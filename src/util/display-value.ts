/** A value as a person reads it: a string as it is, anything else as indented JSON. */
export function displayValue(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}
