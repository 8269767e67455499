/** Cuts `text` to at most `max` characters, ending in `...` when it was cut. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
