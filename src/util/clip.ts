/** Cuts `text` to at most `max` characters, ending in `...` when it was cut. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** Cuts `text` to `max` characters followed by a notice saying how long it was, for messages the reader must know were cut. */
export function clipWithNotice(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… [cut: ${text.length.toLocaleString("en-US")} characters in all]` : text;
}
