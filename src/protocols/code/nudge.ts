import type { CodeBlock } from "../../intercept/extract-code-blocks.ts";
import type { Nudge } from "../../engine/protocol.ts";
import { loadPrompt, renderPrompt } from "../../prompts/prompts.ts";

/** What a reply without runnable code held instead, named so the model can be told. */
export type MissingCodeKind = "empty" | "reasoning-only" | "python-fence" | "untagged-fence" | "other-fence" | "prose-only";

/** A reply without runnable code, classified, and the message that tells the model. */
export interface CodeNudge extends Nudge {
  readonly kind: MissingCodeKind;
}

const PYTHON = new Set(["python", "py", "python3", "ipython"]);

/**
 * Describes a reply that had no runnable block: empty, only reasoning, a
 * ```python fence, an untagged fence, another language, or prose only, and
 * renders the nudge (`prompts/nudge.md`) that names it and shows the accepted form.
 *
 * @param text the reply without its reasoning
 * @param cutNote what to say first when the reply was cut at the token limit
 * @param skipped the fences found in `text` that do not run
 */
export function nudgeFor({ text, reasoning, skipped, cutNote }: { readonly text: string; readonly reasoning?: string; readonly skipped: readonly CodeBlock[]; readonly cutNote?: string }): CodeNudge {
  const { kind, found } = classify(text, reasoning, skipped);
  const nudge = renderPrompt(loadPrompt("nudge"), { found });
  return { kind, found, text: cutNote !== undefined ? `${cutNote}\n\n${nudge}` : nudge };
}

function classify(text: string, reasoning: string | undefined, skipped: readonly CodeBlock[]): { kind: MissingCodeKind; found: string } {
  if (text.trim() === "") {
    return reasoning !== undefined
      ? { kind: "reasoning-only", found: "it was only reasoning (inside <think>…</think> or the server's reasoning field), and code or FINAL written in reasoning never runs" }
      : { kind: "empty", found: "it was empty" };
  }
  const python = skipped.find((block) => PYTHON.has(block.language));
  if (python) return { kind: "python-fence", found: `it had a \`\`\`${python.language} fence, and only JavaScript runs here` };
  if (skipped.some((block) => block.language === "")) return { kind: "untagged-fence", found: "it had a ``` fence without a language tag; tag it ```js so it runs" };
  const other = skipped[0];
  if (other) {
    const why = other.language === "ts" || other.language === "typescript" ? "it is not plain JavaScript (types do not run)" : "only ```js runs";
    return { kind: "other-fence", found: `it had a \`\`\`${other.language} fence, which does not run: ${why}` };
  }
  return { kind: "prose-only", found: "it was prose only, and FINAL written in prose does not answer" };
}
