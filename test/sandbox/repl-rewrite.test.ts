import { describe, expect, test } from "vitest";
import { GuestSyntaxError, boundNames, parseGuest, toReplProgram } from "../../sandbox/index.ts";

// Round-trip fixtures: block as the model wrote it → script the isolate compiles.
// Every rewrite keeps the block's line breaks where they were.
const fixtures: { label: string; block: string; rewritten: string; declared: string[] }[] = [
  {
    label: "const becomes an assignment to a global",
    block: "const x = 1;",
    rewritten: "var x;(async (__rlm_g) => {;(x = 1);\n})",
    declared: ["x"],
  },
  {
    label: "let without initialiser resets; var without initialiser keeps the value",
    block: "let a, b = 2;\nvar c;",
    rewritten: "var a, b, c;(async (__rlm_g) => {;(a = void 0, b = 2);\n;(void 0);\n})",
    declared: ["a", "b", "c"],
  },
  {
    label: "destructuring declarations bind every name in the pattern",
    block: "const {a, b: [c, ...d]} = o, e = 1;",
    rewritten: "var a, c, d, e;(async (__rlm_g) => {;({a, b: [c, ...d]} = o, e = 1);\n})",
    declared: ["a", "c", "d", "e"],
  },
  {
    label: "functions are published at the start, classes after their body",
    block: "function f() {}\nclass C {}\nprint(f)",
    rewritten: 'var f, C;(async (__rlm_g) => {__rlm_g["f"] = f;function f() {}\nclass C {};__rlm_g["C"] = C;\nprint(f)\n})',
    declared: ["f", "C"],
  },
  {
    label: "top-level await stays inside the async body",
    block: "const x = await f();\nprint(x)",
    rewritten: "var x;(async (__rlm_g) => {;(x = await f());\nprint(x)\n})",
    declared: ["x"],
  },
  {
    label: "declarations inside blocks and loops are left alone",
    block: "for (let i = 0; i < 2; i++) {}\nif (1) { const inner = 2 }",
    rewritten: "(async (__rlm_g) => {for (let i = 0; i < 2; i++) {}\nif (1) { const inner = 2 }\n})",
    declared: [],
  },
  {
    label: "a trailing line comment cannot swallow the closing brace",
    block: "print(1) // end",
    rewritten: "(async (__rlm_g) => {print(1) // end\n})",
    declared: [],
  },
  {
    label: "a declaration after a statement without semicolon is guarded by a leading semicolon",
    block: "print(1)\nconst y = [2]",
    rewritten: "var y;(async (__rlm_g) => {print(1)\n;(y = [2])\n})",
    declared: ["y"],
  },
];

describe("toReplProgram", () => {
  test.each(fixtures)("$label", ({ block, rewritten, declared }) => {
    const program = toReplProgram(block);
    expect(program.code).toBe(rewritten);
    expect(program.declared).toEqual(declared);
    // Line structure is preserved: one extra line for the closing of the wrapper.
    expect(program.code.split("\n").length).toBe(block.split("\n").length + 1);
    // The rewritten script is itself valid JavaScript.
    expect(() => parseGuest(program.code)).not.toThrow();
  });

  test("prefixLength is the number of characters before the block's first column", () => {
    const program = toReplProgram("print(1)");
    expect(program.code.slice(program.prefixLength)).toBe("print(1)\n})");
  });
});

describe("parseGuest", () => {
  test.each([
    { label: "error on line 1", code: "const = 1", line: 1, column: 7 },
    { label: "error on a later line", code: "const a = 1;\nconst b = 2;\nlet let = 3", line: 3, column: 5 },
    { label: "return outside a function cannot break out of the wrapper", code: "print(1)\n})\n(() => {", line: 2, column: 1 },
    { label: "hashbang is refused", code: "#!/bin/sh\nprint(1)", line: 1, column: 2 },
  ])("reports a syntax error with line and column ($label)", ({ code, line, column }) => {
    let caught: unknown;
    try {
      parseGuest(code);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GuestSyntaxError);
    expect(caught).toMatchObject({ name: "SyntaxError", line, column });
    expect((caught as Error).message).not.toMatch(/\(\d+:\d+\)$/);
  });

  test("accepts top-level await", () => {
    expect(parseGuest("await 1").body).toHaveLength(1);
  });
});

describe("boundNames", () => {
  test.each([
    { label: "identifier", code: "const a = 1", names: ["a"] },
    { label: "object pattern with rename, default and rest", code: "const {a, b: c, d = 1, ...e} = o", names: ["a", "c", "d", "e"] },
    { label: "array pattern with holes and rest", code: "const [, a, [b], ...c] = o", names: ["a", "b", "c"] },
  ])("$label", ({ code, names }) => {
    const declaration = parseGuest(code).body[0];
    if (declaration.type !== "VariableDeclaration") throw new Error("fixture must be a declaration");
    expect(boundNames(declaration.declarations[0].id)).toEqual(names);
  });
});

describe("toOriginal", () => {
  // Positions in the rewritten script → the same place in the block as written.
  test.each([
    { label: "line 1 after the wrapper prefix", block: "print(1)", at: "print", expected: { line: 1, column: 1 } },
    { label: "line 1 after a rewritten declaration", block: "const a = 1; a.b", at: "a.b", expected: { line: 1, column: 14 } },
    { label: "inside a rewritten initialiser", block: "const a = f(x)", at: "f(x)", expected: { line: 1, column: 11 } },
    { label: "a later line with a declaration before the spot", block: "print(0)\nlet q = {}; q.r", at: "q.r", expected: { line: 2, column: 13 } },
    { label: "a line after a published class", block: "class K {}\n  boom()", at: "boom", expected: { line: 2, column: 3 } },
  ])("$label", ({ block, at, expected }) => {
    const program = toReplProgram(block);
    const offset = program.code.lastIndexOf(at);
    const before = program.code.slice(0, offset).split("\n");
    expect(program.toOriginal(before.length, before[before.length - 1].length + 1)).toEqual(expected);
  });

  test("the wrapper's closing line maps to nothing", () => {
    const program = toReplProgram("print(1)");
    expect(program.toOriginal(2, 2)).toBeUndefined();
  });
});
