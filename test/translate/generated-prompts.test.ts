import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { defineTool, generatedTranslatorPrompt, renderTranslatorPrompt } from "../../src/index.ts";
import { expectedPrompts, shippedNlTools, staleGeneratedPrompts, TRANSLATOR_PROMPTS_DIR, writeGeneratedPrompts } from "../../scripts/generate-prompts.ts";

const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function copyOfPrompts(): string {
  const dir = mkdtempSync(join(tmpdir(), "rlmkit-prompts-"));
  scratch.push(dir);
  cpSync(TRANSLATOR_PROMPTS_DIR, dir, { recursive: true });
  return dir;
}

describe("generated translator prompts (npm run prompts)", () => {
  test("every file in prompts/translators/ is what its tool's definition generates (run `npm run prompts` after changing a tool)", () => {
    expect(staleGeneratedPrompts(TRANSLATOR_PROMPTS_DIR)).toEqual([]);
  });

  test("each generated prompt embeds its tool's real schema and examples, and is exactly what the translator is sent", () => {
    for (const tool of shippedNlTools()) {
      const text = readFileSync(join(TRANSLATOR_PROMPTS_DIR, `${tool.name}.md`), "utf8");
      expect(text).toContain(JSON.stringify(tool.parameters, null, 2));
      expect(text.endsWith(renderTranslatorPrompt(tool))).toBe(true);
    }
  });

  test.each([
    ["a schema changed in code", (dir: string) => dir, () => {
      const tool = shippedNlTools().find((shipped) => shipped.name === "set_reminder");
      const changed = defineTool({ ...tool!, parameters: { ...tool!.parameters, properties: { ...tool!.parameters.properties, priority: { type: "integer" } } } });
      return expectedPrompts([changed]);
    }, "set_reminder.md: differs from its tool's definition"],
    ["a file edited by hand", (dir: string) => {
      const file = join(dir, "set_reminder.md");
      writeFileSync(file, readFileSync(file, "utf8").replace("Answer with JSON only", "Answer with JSON"));
      return dir;
    }, undefined, "set_reminder.md: differs from its tool's definition"],
    ["a file deleted", (dir: string) => {
      rmSync(join(dir, "set_reminder.md"));
      return dir;
    }, undefined, "set_reminder.md: missing"],
    ["a file for a tool that is gone", (dir: string) => {
      writeFileSync(join(dir, "old_tool.md"), "x");
      return dir;
    }, undefined, "old_tool.md: no shipped tool has this name"],
  ] as const)("a stale prompt is detected: %s", (_label, change, expected, message) => {
    const dir = change(copyOfPrompts());
    expect(staleGeneratedPrompts(dir, expected?.() ?? expectedPrompts())).toContain(message);
  });

  test("regenerating makes a stale folder current again", () => {
    const dir = copyOfPrompts();
    writeFileSync(join(dir, "set_reminder.md"), "stale");
    expect(staleGeneratedPrompts(dir)).toHaveLength(1);
    writeGeneratedPrompts(dir);
    expect(staleGeneratedPrompts(dir)).toEqual([]);
    expect(readFileSync(join(dir, "set_reminder.md"), "utf8")).toBe(generatedTranslatorPrompt(shippedNlTools().find((tool) => tool.name === "set_reminder")!));
  });
});
