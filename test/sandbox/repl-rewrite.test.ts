import { describe, expect, test } from "vitest";
import { GuestSyntaxError, boundNames, parseGuest, toReplProgram, type ReplScope } from "../../sandbox/index.ts";

// Round-trip fixtures: block as the model wrote it → script the isolate compiles.
// Every rewrite keeps the block's line breaks where they were, and adds one closing line.
const EARLIER: ReplScope = { declared: new Set(["count", "shared"]), captured: new Set(["shared"]), dynamic: false };

const fixtures: { label: string; block: string; rewritten: string; declared: string[]; locals: string[]; scope?: ReplScope; reserved?: string[] }[] = [
  {
    label: "a const becomes an assignment to a global",
    block: "const x = 1;",
    rewritten: "var x;(async (__rlm_g) => {;(x = 1);\n})",
    declared: ["x"],
    locals: [],
  },
  {
    label: "let without initialiser resets; var without initialiser keeps the value",
    block: "let a, b = 2;\nvar c;",
    rewritten: "var a, b, c;(async (__rlm_g) => {;(a = void 0, b = 2);\n;(void 0);\n})",
    declared: ["a", "b", "c"],
    locals: [],
  },
  {
    label: "destructuring declarations bind every name in the pattern",
    block: "const {a, b: [c, ...d]} = o, e = 1;",
    rewritten: "var a, c, d, e;(async (__rlm_g) => {;({a, b: [c, ...d]} = o, e = 1);\n})",
    declared: ["a", "c", "d", "e"],
    locals: [],
  },
  {
    label: "a variable a loop assigns is a local, stored to its global after each statement that assigns it and at the end",
    block: "let total = 0\nfor (const n of [1, 2]) total += n",
    rewritten: "(async (__rlm_g) => {var total = __rlm_g.total;try {;(total = 0);__rlm_g.total = total;\nfor (const n of [1, 2]) total += n;__rlm_g.total = total;\n} finally {__rlm_g.total = total;}})",
    declared: ["total"],
    locals: ["total"],
  },
  {
    label: "a loop's variable that a function of the block refers to stays a global",
    block: "let total = 0\nfor (const n of [1]) total += n\nconst read = () => total",
    rewritten: "var total, read;(async (__rlm_g) => {;(total = 0)\nfor (const n of [1]) total += n\n;(read = () => total)\n})",
    declared: ["total", "read"],
    locals: [],
  },
  {
    label: "a name a function of an earlier block refers to stays a global; an earlier block's name a loop assigns becomes a local",
    block: "shared = 1\nwhile (count < 3) count += shared",
    rewritten: "(async (__rlm_g) => {var count = __rlm_g.count;try {shared = 1\nwhile (count < 3) count += shared;__rlm_g.count = count;\n} finally {__rlm_g.count = count;}})",
    declared: [],
    locals: ["count"],
    scope: EARLIER,
  },
  {
    label: "functions are published at the start of the try block they now live in, classes after their body",
    block: "let n = 0\nfor (; n < 2; ) n++\nfunction f() {}\nclass C {}",
    rewritten: "var f, C;(async (__rlm_g) => {var n = __rlm_g.n;try {__rlm_g[\"f\"] = __rlm_fn$f();;(n = 0);__rlm_g.n = n;\nfor (; n < 2; ) n++;__rlm_g.n = n;\nfunction __rlm_fn$f() { function f() {} return f }\nclass C {};__rlm_g[\"C\"] = C;\n} finally {__rlm_g.n = n;}})",
    declared: ["n", "f", "C"],
    locals: ["n"],
  },
  {
    label: "without locals, functions are published at the start (made by a hoisted function, so that the block's own name for each is the global) and classes after their body",
    block: "function f() {}\nclass C {}\nprint(f)",
    rewritten: "var f, C;(async (__rlm_g) => {__rlm_g[\"f\"] = __rlm_fn$f();function __rlm_fn$f() { function f() {} return f }\nclass C {};__rlm_g[\"C\"] = C;\nprint(f)\n})",
    declared: ["f", "C"],
    locals: [],
  },
  {
    label: "the prologue goes between a directive and a function that starts right after it",
    block: "'use strict';function f() {}\nprint(f)",
    rewritten: "var f;(async (__rlm_g) => {'use strict';;__rlm_g[\"f\"] = __rlm_fn$f();function __rlm_fn$f() { function f() {} return f }\nprint(f)\n})",
    declared: ["f"],
    locals: [],
  },
  {
    label: "a function named like a name the host defines stays declared in place, the block's own",
    block: "function llm_query(p) { return p }\nprint(llm_query(1))",
    rewritten: "var llm_query;(async (__rlm_g) => {__rlm_g[\"llm_query\"] = llm_query;function llm_query(p) { return p }\nprint(llm_query(1))\n})",
    declared: ["llm_query"],
    locals: [],
    reserved: ["llm_query"],
  },
  {
    label: "top-level await stays inside the async body",
    block: "const x = await f();\nprint(x)",
    rewritten: "var x;(async (__rlm_g) => {;(x = await f());\nprint(x)\n})",
    declared: ["x"],
    locals: [],
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
    block: "let s = 0; while (s < 1) s++ // end",
    rewritten: "(async (__rlm_g) => {var s = __rlm_g.s;try {;(s = 0);__rlm_g.s = s; while (s < 1) s++;__rlm_g.s = s; // end\n} finally {__rlm_g.s = s;}})",
    declared: ["s"],
    locals: ["s"],
  },
  {
    label: "a declaration after a statement without semicolon is guarded by a leading semicolon",
    block: "print(1)\nconst y = [2]",
    rewritten: "var y;(async (__rlm_g) => {print(1)\n;(y = [2])\n})",
    declared: ["y"],
    locals: [],
  },
  {
    label: "the directive prologue stays first, so it still applies",
    block: "'use strict'\nlet n = 0\nwhile (n < 2) n++",
    rewritten: "(async (__rlm_g) => {'use strict';var n = __rlm_g.n;try {\n;(n = 0);__rlm_g.n = n;\nwhile (n < 2) n++;__rlm_g.n = n;\n} finally {__rlm_g.n = n;}})",
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
    block: "let e1 = 0; while (e1 < 1) e1++; eval('e1')",
    rewritten: "var e1;(async (__rlm_g) => {;(e1 = 0); while (e1 < 1) e1++; eval('e1')\n})",
    declared: ["e1"],
    locals: [],
  },
  {
    label: "a name given to FINAL_VAR stays a global",
    block: "let answer = 0, other = 0\nfor (let i = 0; i < 2; i++) { answer += i; other += i }\nFINAL_VAR('answer')",
    rewritten: "var answer;(async (__rlm_g) => {var other = __rlm_g.other;try {;(answer = 0, other = 0);__rlm_g.other = other;\nfor (let i = 0; i < 2; i++) { answer += i; other += i };__rlm_g.other = other;\nFINAL_VAR('answer')\n} finally {__rlm_g.other = other;}})",
    declared: ["answer", "other"],
    locals: ["other"],
  },
  {
    label: "a nested var of a top-level function's name keeps the body out of a try block, and what the block assigns to the name is stored",
    block: "let n = 0\nfor (; n < 1; ) n++\nfunction f() {}\nif (n) { var f = 2 }",
    rewritten: "var n, f;(async (__rlm_g) => {__rlm_g[\"f\"] = f;;(n = 0)\nfor (; n < 1; ) n++\nfunction f() {}\nif (n) { var f = 2 };__rlm_g.f = f;\n})",
    declared: ["n", "f"],
    locals: [],
  },
];

describe("toReplProgram", () => {
  test.each(fixtures)("$label", ({ block, rewritten, declared, locals, scope, reserved }) => {
    const program = toReplProgram(block, { ...(scope ? { scope } : {}), ...(reserved ? { reserved } : {}) });
    expect(program.code).toBe(rewritten);
    expect(program.declared).toEqual(declared);
    expect(program.locals).toEqual(locals);
    // Line structure is preserved: one extra line for the closing of the wrapper.
    expect(program.code.split("\n").length).toBe(block.split("\n").length + 1);
    // The rewritten script is itself valid JavaScript.
    expect(() => parseGuest(program.code)).not.toThrow();
  });

  test.each([
    { label: "a function of an earlier block", code: "let x = 0; while (x < 1) x++", scope: { ...EARLIER, captured: new Set(["x"]) } },
    { label: "an earlier block's function that uses eval", code: "let x = 0; while (x < 1) x++", scope: { ...EARLIER, dynamic: true } },
    { label: "a name the host defines", code: "let context = 0; while (context < 1) context++", reserved: ["context"] },
    { label: "a name the runtime defines", code: "let print = 0; while (print < 1) print++" },
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
