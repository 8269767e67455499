import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { extractCodeBlocks } from "../../src/index.ts";
import { fuzzParameters, fuzzTimeout } from "./fuzz-settings.ts";

const RUNNABLE = new Set(["js", "javascript", "repl", "jsx", "mjs"]);

/** Text of one line that can neither open nor close a fence: it starts with a letter. */
const proseLine = fc.tuple(fc.constantFrom("a", "Z", "x", "é"), fc.string({ maxLength: 30, unit: fc.constantFrom("a", " ", "`", "~", "`js`", "```", "(", ")", "<think>", "\t", "é", "\u2028") })).map(([first, rest]) => first + rest);
/** A line inside a block: anything but a line that could close the fence (no backtick or tilde runs at its start). */
const codeLine = fc.oneof(proseLine, fc.constant(""), fc.constant("  indented()"), fc.constant("const s = `tpl`"), fc.constant("// ``` inside a comment"));

interface ExpectedBlock {
  readonly code: string;
  readonly language: string;
}

/** A well-formed reply: prose and closed fences of either kind, lengths 3–5, with assorted info strings. */
const reply = fc
  .array(
    fc.oneof(
      proseLine.map((line) => ({ text: line, block: undefined as ExpectedBlock | undefined })),
      fc
        .record({
          fence: fc.constantFrom("```", "````", "~~~", "~~~~~"),
          info: fc.constantFrom("js", "javascript", "JS", "repl", "python", "json", "", "ts", "js {title}", "  js", "text"),
          body: fc.array(codeLine, { maxLength: 5 }),
          indent: fc.constantFrom("", " ", "   "),
        })
        .map(({ fence, info, body, indent }) => ({
          text: [`${indent}${fence}${info}`, ...body, `${indent}${fence}`].join("\n"),
          block: { code: body.join("\n"), language: info.trim().split(/\s/)[0]!.toLowerCase() } as ExpectedBlock | undefined,
        })),
    ),
    { maxLength: 8 },
  )
  .map((parts) => ({ text: parts.map((part) => part.text).join("\n"), blocks: parts.flatMap((part) => (part.block ? [part.block] : [])) }));

describe("fence extraction on generated replies", () => {
  test(
    "a well-formed reply yields exactly its blocks, in order, split into runnable and skipped by language",
    () => {
      fc.assert(
        fc.property(reply, ({ text, blocks }) => {
          const { runnable, skipped } = extractCodeBlocks(text);
          expect(runnable.map(({ code, language }) => ({ code, language }))).toEqual(blocks.filter((block) => RUNNABLE.has(block.language)));
          expect(skipped.map(({ code, language }) => ({ code, language }))).toEqual(blocks.filter((block) => !RUNNABLE.has(block.language)));
          expect([...runnable, ...skipped].every((block) => !block.unclosed)).toBe(true);
        }),
        fuzzParameters(0.1, 300),
      );
    },
    fuzzTimeout(0.1, 30_000),
  );

  test(
    "any reply, cut anywhere, never throws, and every block is the reply's own lines from its start line",
    () => {
      const anyReply = fc.oneof(
        reply.chain(({ text }) => fc.integer({ min: 0, max: text.length }).map((cut) => text.slice(0, cut))),
        fc.string({ maxLength: 200, unit: fc.constantFrom("```", "~~~", "js", "\n", "\r\n", " ", "`", "~", "x", "    ", "\t", "json") }),
      );
      fc.assert(
        fc.property(anyReply, (text) => {
          const { runnable, skipped } = extractCodeBlocks(text, () => true);
          const lines = text.split(/\r?\n/);
          for (const block of [...runnable, ...skipped]) {
            expect(block.startLine).toBeGreaterThanOrEqual(2);
            // An unclosed block runs to the end of the reply.
            const bodyLines = block.unclosed ? lines.length - (block.startLine - 1) : block.code === "" ? 0 : block.code.split("\n").length;
            expect(lines.slice(block.startLine - 1, block.startLine - 1 + bodyLines).join("\n")).toBe(block.code);
          }
          const starts = [...runnable, ...skipped].map((block) => block.startLine);
          expect(new Set(starts).size).toBe(starts.length);
        }),
        fuzzParameters(0.1, 500),
      );
    },
    fuzzTimeout(0.1, 30_000),
  );
});
