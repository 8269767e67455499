/** A fenced code block found in a model reply. */
export interface CodeBlock {
  /** The code between the fences. */
  readonly code: string;
  /** The fence's language tag, lower-cased ("" when untagged). */
  readonly language: string;
  /** 1-based line of the reply where the code starts (the line after the opening fence). */
  readonly startLine: number;
  /** True when the reply ended before a closing fence. */
  readonly unclosed: boolean;
}

/** What a reply held: blocks to run, and fences that were skipped. */
export interface ExtractedBlocks {
  /** Blocks tagged as JavaScript (js, javascript, repl, and ts/typescript that parse as JS), in order. */
  readonly runnable: readonly CodeBlock[];
  /** Every other fence (untagged, json, python, ...), so feedback can mention them. */
  readonly skipped: readonly CodeBlock[];
}

const RUNNABLE = new Set(["js", "javascript", "repl", "jsx", "mjs"]);
const MAYBE_RUNNABLE = new Set(["ts", "typescript"]);
// Fence, then an info string without backticks. The language (its first word) is read
// separately: one pattern with both would backtrack quadratically over long runs of spaces.
const OPENING = /^ {0,3}(`{3,}|~{3,})([^`]*)$/;
const LANGUAGE = /^\s*([^\s`{]*)/;

/**
 * Finds the fenced code blocks of a reply, following CommonMark's fence rules:
 * a fence closes only with the same character, at least as long, and no info
 * string, so the closing fence of a ```json block is never taken for an opening.
 * An unclosed last fence runs to the end of the reply and is flagged `unclosed`.
 *
 * @param parsesAsJs decides whether a `ts` block is plain JavaScript; blocks that do not parse are skipped.
 */
export function extractCodeBlocks(reply: string, parsesAsJs: (code: string) => boolean = () => false): ExtractedBlocks {
  const lines = reply.split(/\r?\n/);
  const runnable: CodeBlock[] = [];
  const skipped: CodeBlock[] = [];
  let index = 0;
  while (index < lines.length) {
    const open = OPENING.exec(lines[index]);
    // OPENING refuses a backtick in the info string, so "use ```js``` fences" in prose opens nothing.
    if (!open) {
      index++;
      continue;
    }
    const fence = open[1];
    const language = LANGUAGE.exec(open[2])![1].toLowerCase();
    const body: string[] = [];
    let cursor = index + 1;
    let closed = false;
    const closing = new RegExp(`^ {0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`);
    for (; cursor < lines.length; cursor++) {
      if (closing.test(lines[cursor])) {
        closed = true;
        break;
      }
      body.push(lines[cursor]);
    }
    const block: CodeBlock = { code: body.join("\n"), language, startLine: index + 2, unclosed: !closed };
    const isRunnable = RUNNABLE.has(language) || (MAYBE_RUNNABLE.has(language) && parsesAsJs(block.code));
    (isRunnable ? runnable : skipped).push(block);
    index = cursor + 1;
  }
  return { runnable, skipped };
}
