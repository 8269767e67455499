// The brace, quote and escape counting of a JSON-like object a model writes in its text, one
// delta at a time: where the object closes, or how far it was scanned when the text ran out.

const QUOTE = 34, APOSTROPHE = 39, BACKSLASH = 92, OPEN = 123, CLOSE = 125, NEWLINE = 10;

/** An object being scanned: where it starts, how far it was scanned, and the state there. */
export interface ObjectScan {
  /** Where the object's opening brace is. */
  start: number;
  /** How far the text was scanned: the next scan goes on from here. */
  scanned: number;
  /** Braces open at `scanned` (outside quotes). */
  depth: number;
  /** The quote character the scan is inside (`"` or `'`), or 0. */
  quote: number;
  /** The character before `scanned` was a backslash inside quotes. */
  escape: boolean;
}

/** Where the scan stopped: the object closed (`end` after its brace), a fence closed inside it (`end` at the line feed before the fence), or the text ran out. */
export type ObjectStop = { readonly kind: "closed" | "fence"; readonly end: number } | { readonly kind: "more" };

/**
 * Scans `text` from `scan.scanned`, updating `scan`. Braces inside quotes (either
 * kind, with backslash escapes) do not count. Inside a fence, each line feed asks
 * `fenceClosesAfter` whether the fence closes on the next line ("wait": not known yet,
 * so the scan stops there for more text).
 */
export function scanBraces(text: string, scan: ObjectScan, fenceClosesAfter: ((newline: number) => "yes" | "no" | "wait") | undefined): ObjectStop {
  let index = scan.scanned;
  for (; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === NEWLINE && fenceClosesAfter) {
      const close = fenceClosesAfter(index);
      if (close === "wait") break;
      if (close === "yes") {
        scan.scanned = index;
        return { kind: "fence", end: index };
      }
    }
    if (scan.quote !== 0) {
      if (scan.escape) scan.escape = false;
      else if (code === BACKSLASH) scan.escape = true;
      else if (code === scan.quote) scan.quote = 0;
    } else if (code === QUOTE || code === APOSTROPHE) {
      scan.quote = code;
    } else if (code === OPEN) {
      scan.depth++;
    } else if (code === CLOSE && --scan.depth === 0) {
      scan.scanned = index + 1;
      return { kind: "closed", end: index + 1 };
    }
  }
  scan.scanned = index;
  return { kind: "more" };
}
