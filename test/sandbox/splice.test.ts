import { describe, expect, test } from "vitest";
import { SourceSplice } from "../../sandbox/index.ts";

describe("SourceSplice", () => {
  test.each([
    { label: "insert only", edits: [["insert", 2, "XY"]], output: "abXYcdef" },
    { label: "replace only", edits: [["replace", 1, 3, "-"]], output: "a-def" },
    { label: "edits applied in offset order whatever the call order", edits: [["insert", 5, "!"], ["replace", 0, 1, "A"]], output: "Abcde!f" },
    { label: "two inserts at one offset keep call order", edits: [["insert", 3, "1"], ["insert", 3, "2"]], output: "abc12def" },
  ] as { label: string; edits: (["insert", number, string] | ["replace", number, number, string])[]; output: string }[])(
    "$label",
    ({ edits, output }) => {
      const splice = new SourceSplice("abcdef");
      for (const edit of edits) {
        if (edit[0] === "insert") splice.insert(edit[1], edit[2]);
        else splice.replace(edit[1], edit[2], edit[3]);
      }
      expect(splice.toString()).toBe(output);
    },
  );

  test("overlapping replacements are refused", () => {
    const splice = new SourceSplice("abcdef");
    splice.replace(0, 3, "x");
    splice.replace(2, 4, "y");
    expect(() => splice.toString()).toThrow(/overlapping edit/);
  });

  test.each([
    { label: "before any edit", offset: 0, original: 0 },
    { label: "inside inserted text maps to the insertion point", offset: 3, original: 2 },
    { label: "after an insertion shifts back", offset: 5, original: 3 },
    { label: "after a shrinking replacement shifts forward", offset: 7, original: 7 },
  ])("originalOffset: $label", ({ offset, original }) => {
    const splice = new SourceSplice("abcdefghij");
    splice.insert(2, "XY"); // ab XY cdefghij
    splice.replace(4, 7, "-"); // abXYcd-hij
    expect(splice.originalOffset(offset)).toBe(original);
  });
});
