// `npm run prompts`: writes the translator prompt of every shipped tool offered by
// description to prompts/translators/<tool>.md (the tool's real schema and examples
// embedded). `npm test` fails when one of them differs from what this would write.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generatedTranslatorPrompt, UsageLedger, type Tool } from "../src/index.ts";
import { createBackgroundScheduler, createBackgroundTools } from "../src/background/index.ts";
import { ReminderStore } from "../examples/reminders/reminder-store.ts";
import { createReminders } from "../examples/reminders/reminders.ts";

/** The folder the generated prompts live in. */
export const TRANSLATOR_PROMPTS_DIR = fileURLToPath(new URL("../prompts/translators/", import.meta.url));

/** The shipped tools that have a generated translator prompt. */
export function shippedNlTools(): Tool[] {
  const store = new ReminderStore(":memory:");
  try {
    // Only the definitions matter here: this scheduler never starts a task.
    const scheduler = createBackgroundScheduler({ startChild: () => Promise.reject(new Error("not started")), ledger: new UsageLedger(), signal: AbortSignal.abort() });
    const [spawn] = createBackgroundTools(scheduler);
    return [spawn, createReminders({ store }).setReminder];
  } finally {
    store.close();
  }
}

/** What a generated prompt file should hold, by file name. */
export function expectedPrompts(tools: readonly Tool[] = shippedNlTools()): Map<string, string> {
  return new Map(tools.map((tool) => [`${tool.name}.md`, generatedTranslatorPrompt(tool)]));
}

/** The generated files in `dir` that are missing, differ from `expected`, or belong to no tool. Empty when all are current. */
export function staleGeneratedPrompts(dir: string, expected: Map<string, string> = expectedPrompts()): string[] {
  const stale: string[] = [];
  for (const [file, text] of expected) {
    let current: string | undefined;
    try {
      current = readFileSync(join(dir, file), "utf8");
    } catch {
      current = undefined;
    }
    if (current !== text) stale.push(`${file}: ${current === undefined ? "missing" : "differs from its tool's definition"}`);
  }
  let present: string[] = [];
  try {
    present = readdirSync(dir).filter((file) => file.endsWith(".md"));
  } catch {
    present = [];
  }
  for (const file of present) if (!expected.has(file)) stale.push(`${file}: no shipped tool has this name`);
  return stale;
}

/** Writes every generated prompt to `dir`; returns the files written. */
export function writeGeneratedPrompts(dir: string, expected: Map<string, string> = expectedPrompts()): string[] {
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of expected) writeFileSync(join(dir, file), text);
  return [...expected.keys()];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const file of writeGeneratedPrompts(TRANSLATOR_PROMPTS_DIR)) process.stdout.write(`wrote prompts/translators/${file}\n`);
}
