import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { runSession, ScriptedModel } from "../../src/index.ts";
import { js } from "../support/scripted-replies.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The real text of `rewriteBlock`, from its doc comment to its closing brace, read straight from the file. */
function realRewriteBlock(): { text: string; startLine: number; endLine: number } {
  const lines = readFileSync(join(root, "src/intercept/intercept-block.ts"), "utf8").split("\n");
  const declaration = lines.findIndex((line) => line.startsWith("export function rewriteBlock("));
  let start = declaration;
  while (start > 0 && /^\s*(\/\*\*|\*)/.test(lines[start - 1])) start--;
  const end = lines.findIndex((line, index) => index > declaration && line === "}");
  return { text: lines.slice(start, end + 1).join("\n"), startLine: start + 1, endLine: end + 1 };
}

describe("runSession({ repo }) on this project's own repository", () => {
  test("finds the function that rewrites intercepted calls with nav_search, reads it with nav_read, answers with FINAL", async () => {
    const model = new ScriptedModel([
      js('const hits = nav_search("Replaces each intercepted call")\nprint(hits.matches.map((m) => `${m.path}:${m.line} ${m.symbol}`).join("\\n"))'),
      (request) => {
        // The model reads the enclosing symbol it was shown, as a model would.
        const feedback = request.messages.at(-1)!.content;
        const symbol = /src\/intercept\/intercept-block\.ts:\d+ (\w+)/.exec(feedback)?.[1] ?? "not-found";
        return js(`const source = nav_read("src/intercept/intercept-block.ts#${symbol}")\nFINAL({ path: source.path, startLine: source.startLine, endLine: source.endLine, text: source.text })`);
      },
    ]);
    const result = await runSession({ question: "Which function rewrites intercepted tool calls?", model, repo: root, navOptions: { cacheDir: false } });
    expect(result.status).toBe("final");
    const real = realRewriteBlock();
    expect(result.answer).toEqual({ path: "src/intercept/intercept-block.ts", startLine: real.startLine, endLine: real.endLine, text: real.text });

    const system = model.requests[0].messages[0].content;
    expect(system).toContain("## The repository");
    expect(system).toMatch(/You are answering questions about the code repository [\w.-]+: \d[\d,]* files/);
    expect(system).toContain('const hits = nav_search("retry"');
  });

  test("a repository that does not exist is refused before the session starts", async () => {
    await expect(runSession({ question: "q", model: new ScriptedModel([]), repo: join(root, "no-such-dir") })).rejects.toThrow(/is not a readable directory/);
  });
});
