import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Names of the prompt templates shipped in `prompts/`. */
export type PromptName = "system" | "tools" | "nudge" | "final-turn" | "question" | (string & {});

const cache = new Map<string, string>();
let promptsDir: string | undefined;

/** The folder the prompt templates are loaded from (the package's `prompts/`). */
export function promptsDirectory(): string {
  if (promptsDir) return promptsDir;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, "prompts", "system.md")) && existsSync(join(dir, "package.json"))) {
      promptsDir = join(dir, "prompts");
      return promptsDir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("rlmkit: could not find the prompts/ folder next to package.json; the installation looks incomplete.");
    dir = parent;
  }
}

/** Loads a prompt template by name (cached after the first read). */
export function loadPrompt(name: PromptName): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(join(promptsDirectory(), `${name}.md`), "utf8");
    cache.set(name, text);
  }
  return text;
}

/**
 * Fills `{{slot}}` placeholders. Every slot in the template must be given a value
 * (an empty string is fine), so a renamed slot fails loudly instead of leaking braces.
 *
 * @example renderPrompt("Question: {{question}}", { question: "Why?" }) // "Question: Why?"
 */
export function renderPrompt(template: string, slots: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, slot: string) => {
    const value = slots[slot];
    if (value === undefined) throw new Error(`prompt slot {{${slot}}} has no value; give one of: ${Object.keys(slots).join(", ")}`);
    return value;
  });
}
