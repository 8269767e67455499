import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNavTools, isNavError, type NavTools } from "../../src/nav/index.ts";
import { PROJECT_ROOT } from "./fixture-repo.ts";

let nav: NavTools;

beforeAll(async () => {
  nav = await createNavTools(PROJECT_ROOT, { cacheDir: false });
});

afterAll(async () => {
  await nav?.close();
});

describe("on this project's own repository", () => {
  test("nav_search finds defineTool and nav_read returns exactly its source", async () => {
    const hits = await nav.search("export function defineTool", { caseSensitive: true });
    if (isNavError(hits)) throw new Error(hits.error);
    expect(hits.matches).toContainEqual(expect.objectContaining({ path: "src/tools/define-tool.ts", symbol: "defineTool" }));

    const read = await nav.read("src/tools/define-tool.ts#defineTool");
    if (isNavError(read)) throw new Error(read.error);
    const lines = (await fs.readFile(path.join(PROJECT_ROOT, "src", "tools", "define-tool.ts"), "utf8")).split("\n");
    const start = lines.findIndex((line) => line.startsWith("export function defineTool")) + 1;
    const docStart = lines.slice(0, start).lastIndexOf("/**") + 1;
    const end = lines.findIndex((line, index) => index >= start && line === "}") + 1;
    expect(read.startLine).toBe(docStart);
    expect(read.endLine).toBe(end);
    expect(read.text).toBe(lines.slice(docStart - 1, end).join("\n"));
  });

  test("node_modules and other ignored directories are not indexed", async () => {
    const root = await nav.ls("");
    if (isNavError(root) || root.type !== "dir") throw new Error("expected the root listing");
    const names = root.entries.map((entry) => entry.name);
    expect(names).toContain("src");
    expect(names).not.toContain("node_modules");
    expect(names).not.toContain(".git");
  });
});
