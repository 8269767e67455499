import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

describe("the built package", () => {
  test("package.json exports point at built JavaScript with type declarations", async () => {
    const pkg = (await import(join(root, "package.json"), { with: { type: "json" } })).default;
    const entry = pkg.exports["."];
    expect(existsSync(join(root, entry.import))).toBe(true);
    expect(existsSync(join(root, entry.types))).toBe(true);
    expect(pkg.engines.node).toBe(">=24");
  });

  test("`import ... from \"rlmkit\"` runs a whole session from the built code", () => {
    // Node resolves a package's own name through its exports, as another project would.
    const script = `
      import { runSession, ScriptedModel, defineTool } from "rlmkit";
      const tool = defineTool({ name: "facts", description: "d", parameters: { type: "object", properties: {} }, handler: () => ({ n: 41 }) });
      const model = new ScriptedModel(["\`\`\`js\\nconst f = facts()\\nFINAL(f.n + 1)\\n\`\`\`"]);
      const result = await runSession({ question: "q", model, tools: [tool] });
      console.log(JSON.stringify({ status: result.status, answer: result.answer }));
    `;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({ status: "final", answer: 42 });
  });
});
