import { describe, expect, test } from "vitest";
import { GuestSyntaxError, boundNames, parseGuest, toReplProgram, type ReplScope } from "../../sandbox/index.ts";

// Round-trip fixtures: block as the model wrote it → script the isolate compiles.
// Every rewrite keeps the block's line breaks where they were, and adds one closing line.
const EARLIER: ReplScope = { declared: new Set(["count", "shared"]), captured: new Set(["shared"]), dynamic: false };

const fixtures: { label: string; block: string; rewritten: string; declared: string[]; locals: string[]; scope?: ReplScope }[] = [
  {
    label: "a const no function refers to is a local, stored on the global object after its statement and at the end",
    block: "const x = 1;",
    rewritten: "(async (__rlm_g) => {var x = __rlm_g.x;try {;(x = 1);__rlm_g.x = x;\n} finally {__rlm_g.x = x;}})",
    declared: ["x"],
    locals: ["x"],
  },
  {
    label: "let without initialiser resets; var without initialiser keeps the value",
    block: "let a, b = 2;\nvar c;",
    rewritten: "(async (__rlm_g) => {var a = __rlm_g.a, b = __rlm_g.b, c = __rlm_g.c;try {;(a = void 0, b = 2);__rlm_g.a = a;__rlm_g.b = b;\n;(void 0);__rlm_g.c = c;\n} finally {__rlm_g.a = a;__rlm_g.b = b;__rlm_g.c = c;}})",
    declared: ["a", "b", "c"],
    locals: ["a", "b", "c"],
  },
  {
    label: "destructuring declarations bind every name in the pattern",
    block: "const {a, b: [c, ...d]} = o, e = 1;",
    rewritten: "(async (__rlm_g) => {var a = __rlm_g.a, c = __rlm_g.c, d = __rlm_g.d, e = __rlm_g.e;try {;({a, b: [c, ...d]} = o, e = 1);__rlm_g.a = a;__rlm_g.c = c;__rlm_g.d = d;__rlm_g.e = e;\n} finally {__rlm_g.a = a;__rlm_g.c = c;__rlm_g.d = d;__rlm_g.e = e;}})",
    declared: ["a", "c", "d", "e"],
    locals: ["a", "c", "d", "e"],
  },
  {
    label: "a name a function of the block refers to stays a global",
    block: "let total = 0\nconst read = () => total",
    rewritten: "var total;(async (__rlm_g) => {var read = __rlm_g.read;try {;(total = 0)\n;(read = () => total);__rlm_g.read = read;\n} finally {__rlm_g.read = read;}})",
    declared: ["total", "read"],
    locals: ["read"],
  },
  {
    label: "a name a function of an earlier block refers to stays a global; an earlier name assigned here becomes a local",
    block: "shared = 1\ncount += shared",
    rewritten: "(async (__rlm_g) => {var count = __rlm_g.count;try {shared = 1\ncount += shared;__rlm_g.count = count;\n} finally {__rlm_g.count = count;}})",
    declared: [],
    locals: ["count"],
    scope: EARLIER,
  },
  {
    label: "functions are published at the start (inside the try block they live in), classes after their body",
    block: "let n = 1\nfunction f() {}\nclass C {}\nprint(f)",
    rewritten: 'var f, C;(async (__rlm_g) => {var n = __rlm_g.n;try {__rlm_g["f"] = f;;(n = 1);__rlm_g.n = n;\nfunction f() {}\nclass C {};__rlm_g["C"] = C;\nprint(f)\n} finally {__rlm_g.n = n;}})',
    declared: ["n", "f", "C"],
    locals: ["n"],
  },
  {
    label: "top-level await stays inside the async body",
    block: "const x = await f();\nprint(x)",
    rewritten: "(async (__rlm_g) => {var x = __rlm_g.x;try {;(x = await f());__rlm_g.x = x;\nprint(x)\n} finally {__rlm_g.x = x;}})",
    declared: ["x"],
    locals: ["x"],
  },
  {
    label: "declarations inside blocks and loops are left alone",
    block: "for (let i = 0; i < 2; i++) {}\nif (1) { const inner = 2 }",
    rewritten: "(async (__rlm_g) => {for (let i = 0; i < 2; i++) {}\nif (1) { const inner = 2 }\n})",
    declared: [],
    locals: [],
  },
  {
    label: "a trailing line comment cannot swallow the closing brace",
    block: "let s = 0 // start",
    rewritten: "(async (__rlm_g) => {var s = __rlm_g.s;try {;(s = 0);__rlm_g.s = s; // start\n} finally {__rlm_g.s = s;}})",
    declared: ["s"],
    locals: ["s"],
  },
  {
    label: "a declaration after a statement without semicolon is guarded by a leading semicolon",
    block: "print(1)\nconst y = [2]",
    rewritten: "(async (__rlm_g) => {var y = __rlm_g.y;try {print(1)\n;(y = [2]);__rlm_g.y = y;\n} finally {__rlm_g.y = y;}})",
    declared: ["y"],
    locals: ["y"],
  },
  {
    label: "the directive prologue stays first, so it still applies",
    block: "'use strict'\nlet n = 1",
    rewritten: "(async (__rlm_g) => {'use strict';var n = __rlm_g.n;try {\n;(n = 1);__rlm_g.n = n;\n} finally {__rlm_g.n = n;}})",
    declared: ["n"],
    locals: ["n"],
  },
  {
    label: "an HTML close comment on line 1 stays a comment after the prefix",
    block: "--> note\nprint(1)",
    rewritten: "(async (__rlm_g) => {//> note\nprint(1)\n})",
    declared: [],
    locals: [],
  },
  {
    label: "eval keeps every name a global",
    block: "let e1 = 1; eval('e1')",
    rewritten: "var e1;(async (__rlm_g) => {;(e1 = 1); eval('e1')\n})",
    declared: ["e1"],
    locals: [],
  },
  {
    label: "a name given to FINAL_VAR stays a global",
    block: "let answer = 1, other = 2\nif (answer) FINAL_VAR('answer')",
    rewritten: "var answer;(async (__rlm_g) => {var other = __rlm_g.other;try {;(answer = 1, other = 2);__rlm_g.other = other;\nif (answer) FINAL_VAR('answer')\n} finally {__rlm_g.other = other;}})",
    declared: ["answer", "other"],
    locals: ["other"],
  },
  {
    label: "a nested var of a top-level function's name keeps the body out of a try block",
    block: "let n = 1\nfunction f() {}\nif (n) { var f = 2 }",
    rewritten: 'var n, f;(async (__rlm_g) => {__rlm_g["f"] = f;;(n = 1)\nfunction f() {}\nif (n) { var f = 2 }\n})',
    declared: ["n", "f"],
    locals: [],
  },
];

describe("toReplProgram", () => {
  test.each(fixtures)("$label", ({ block, rewritten, declared, locals, scope }) => {
    const program = toReplProgram(block, scope ? { scope } : {});
    expect(program.code).toBe(rewritten);
    expect(program.declared).toEqual(declared);
    expect(program.locals).toEqual(locals);
    // Line structure is preserved: one extra line for the closing of the wrapper.
    expect(program.code.split("\n").length).toBe(block.split("\n").length + 1);
    // The rewritten script is itself valid JavaScript.
    expect(() => parseGuest(program.code)).not.toThrow();
  });

  test.each([
    { label: "a function of an earlier block", code: "let x = 1", scope: { ...EARLIER, captured: new Set(["x"]) } },
    { label: "an earlier block's function that uses eval", code: "let x = 1", scope: { ...EARLIER, dynamic: true } },
    { label: "a name the host defines", code: "let context = 1", reserved: ["context"] },
    { label: "a name the runtime defines", code: "let print = 1" },
  ])("nothing is kept in a local because of $label", ({ code, scope, reserved }) => {
    expect(toReplProgram(code, { ...(scope ? { scope } : {}), ...(reserved ? { reserved } : {}) }).locals).toEqual([]);
  });

  test.each([
    { label: "a name a function refers to", code: "let x = 1; const f = () => x", captured: ["x"], dynamic: false },
    { label: "no name shadowed by a parameter or a local", code: "let x = 1; const f = (x) => x; function g() { let x; return x }", captured: [], dynamic: false },
    { label: "a name FINAL_VAR answers with from a function", code: "function done() { FINAL_VAR('best') }", captured: ["FINAL_VAR", "best"], dynamic: false },
    // eval makes the function's scope dynamic, so even its parameter counts (it does not matter: no later block keeps locals).
    { label: "eval in a function", code: "function peek(name) { return eval(name) }", captured: ["eval", "name"], dynamic: true },
    { label: "FINAL_VAR with a computed name in a function", code: "function answer(name) { FINAL_VAR(name) }", captured: ["FINAL_VAR"], dynamic: true },
  ])("records $label for later blocks", ({ code, captured, dynamic }) => {
    const program = toReplProgram(code);
    expect([...program.captured].sort()).toEqual(captured);
    expect(program.dynamic).toBe(dynamic);
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
