import { CHARS_PER_TOKEN } from "../model/estimate-tokens.ts";
import { loadPrompt, renderPrompt } from "../prompts/prompts.ts";

/** Characters suggested for one sub-call when the sub-model's context window is unknown. */
export const DEFAULT_SUBCALL_PROMPT_CHARS = 50_000;
/** Share of the sub-model's context window suggested for one prompt; the rest is left for instructions and the reply. */
export const SUBCALL_WINDOW_SHARE = 0.5;

/** What the sub-call section of the system prompt says. */
export interface SubcallPromptOptions {
  /** The sub-model's id. */
  readonly subModel: string;
  /** The sub-model's context window in tokens, when known. */
  readonly contextWindow?: number;
  /** How many sub-calls run at once. */
  readonly concurrency: number;
  /** Depth of the session the prompt is for (0 for the root). */
  readonly depth: number;
  /** Deepest child session allowed. */
  readonly maxDepth: number;
  /** What the session reads, so the example uses only what exists: its `context`, a repository through the nav tools, or neither. */
  readonly input?: SubcallExampleInput;
  /** Whether the session has tools (a child session started by `rlm_query` gets the same ones). */
  readonly hasTools?: boolean;
}

/** Which worked example the sub-call section shows: `prompts/subcall-example-{context,repo,plain}.md`. */
export type SubcallExampleInput = "context" | "repo" | "none";

/**
 * How many characters to hand one sub-call: half the sub-model's context window
 * at about four characters per token, or {@link DEFAULT_SUBCALL_PROMPT_CHARS} when
 * the window is unknown.
 */
export function subcallPromptChars(contextWindow: number | undefined): number {
  if (contextWindow === undefined || !(contextWindow > 0)) return DEFAULT_SUBCALL_PROMPT_CHARS;
  const chars = Math.floor(contextWindow * CHARS_PER_TOKEN * SUBCALL_WINDOW_SHARE);
  return Math.max(1_000, Math.floor(chars / 1_000) * 1_000);
}

/** Renders `prompts/subcalls.md`, the system prompt section that teaches `llm_query`, `llm_query_batched`, `rlm_query` and `budget`. */
export function renderSubcallSection({ subModel, contextWindow, concurrency, depth, maxDepth, input = "context", hasTools = true }: SubcallPromptOptions): string {
  const chars = subcallPromptChars(contextWindow).toLocaleString("en-US");
  const sizeNote =
    contextWindow !== undefined && contextWindow > 0
      ? `The sub-model reads about ${contextWindow.toLocaleString("en-US")} tokens, so give one call at most about ${chars} characters.`
      : `The sub-model's context window is not known; give one call at most about ${chars} characters.`;
  const rlmBehaviour =
    depth + 1 <= maxDepth
      ? `the FINAL answer of a new session like this one (its own sandbox, with \`value\` as its \`context\`${hasTools ? ", and the same tools" : ""}), for a sub-question that needs code of its own. Slower and costlier than \`llm_query\`.`
      : "here the same as `llm_query(question + \"\\n\\n\" + value)` (the depth limit is reached, so no new session is started).";
  return renderPrompt(loadPrompt("subcalls"), {
    sub_model: subModel,
    concurrency: String(concurrency),
    rlm_behaviour: rlmBehaviour,
    size_note: sizeNote,
    example: loadPrompt(`subcall-example-${input === "none" ? "plain" : input}`).trimEnd(),
  });
}
