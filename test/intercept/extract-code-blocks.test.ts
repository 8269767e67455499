import { describe, expect, test } from "vitest";
import { extractCodeBlocks } from "../../src/index.ts";

const parsesAsJs = (code: string) => !/:\s*(string|number)\b/.test(code);

describe("extractCodeBlocks", () => {
  test.each([
    ["js fence", "text\n```js\nprint(1)\n```\nmore", ["print(1)"]],
    ["javascript, any case", "```JavaScript\na()\n```", ["a()"]],
    ["repl fence", "```repl\nb()\n```", ["b()"]],
    ["several blocks in order", "```js\na()\n```\nand\n```js\nb()\n```", ["a()", "b()"]],
    ["tilde fences", "~~~js\nc()\n~~~", ["c()"]],
    ["a json fence's closing is not an opening", "```json\n{\"a\": 1}\n```\nFINAL(1)\n```js\nd()\n```", ["d()"]],
    ["python and text fences are skipped", "```python\nFINAL(2)\n```\n```text\nFINAL(3)\n```", []],
    ["untagged fences do not run", "```\nFINAL(4)\n```", []],
    ["prose FINAL is not code", "The answer is FINAL(42).", []],
    ["a longer fence holds a shorter one", "````js\nconst s = \"```\";\n```\nprint(s)\n````", ["const s = \"```\";\n```\nprint(s)"]],
    ["ts that is plain JavaScript runs", "```ts\nconst a = 1\n```", ["const a = 1"]],
    ["ts with type annotations is skipped", "```ts\nconst a: number = 1\n```", []],
    ["inline triple backticks in prose are not fences", "use ```js``` fences\n```js\ne()\n```", ["e()"]],
  ])("%s", (_label, reply, expected) => {
    expect(extractCodeBlocks(reply, parsesAsJs).runnable.map((block) => block.code)).toEqual(expected);
  });

  test("an unclosed last fence runs to the end of the reply and is flagged", () => {
    const { runnable } = extractCodeBlocks("```js\nconst x = 1\nprint(x)");
    expect(runnable).toHaveLength(1);
    expect(runnable[0]).toMatchObject({ code: "const x = 1\nprint(x)", unclosed: true, startLine: 2 });
  });

  // A fence line with a long run of spaces made the opening pattern backtrack quadratically
  // (minutes of blocked host for one line of a reply); it is one linear pass now.
  test.each([
    ["spaces then a backtick", "```" + " ".repeat(300_000) + "`"],
    ["spaces then text then a backtick", "~~~" + " ".repeat(300_000) + "js `"],
    ["tabs then a backtick", "```" + "\t".repeat(300_000) + "`"],
  ])("a reply line of %s is not a fence and is read in one pass", (_label, line) => {
    expect(extractCodeBlocks(`${line}\n\`\`\`js\nf()\n\`\`\``).runnable.map((block) => block.code)).toEqual(["f()"]);
  });

  test.each([
    ["spaces before the language", "```   js  \ng()\n```", "js"],
    ["an info string after the language", "```js title=x\ng()\n```", "js"],
    ["a brace after the language", "```js{1,2}\ng()\n```", "js"],
  ])("the language is read with %s", (_label, reply, language) => {
    expect(extractCodeBlocks(reply).runnable.map((block) => block.language)).toEqual([language]);
  });

  test("skipped fences are reported with their language", () => {
    const { skipped } = extractCodeBlocks("```python\nx\n```\n```\ny\n```");
    expect(skipped.map((block) => block.language)).toEqual(["python", ""]);
  });
});
