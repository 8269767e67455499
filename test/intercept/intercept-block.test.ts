import { describe, expect, test } from "vitest";
import { ACCEPTED_FORM, interceptBlock, rewriteBlock } from "../../src/index.ts";
import { parseGuest } from "../../sandbox/index.ts";

const tools = new Set(["nav_info", "nav_read", "nav_ls"]);

describe("accepted forms", () => {
  test.each([
    // label, code, expected calls [tool, args, target]
    ["const with no arguments", `const info = nav_info()`, [["nav_info", [], "info"]]],
    ["let with a string", `let r = nav_read("A.b")`, [["nav_read", ["A.b"], "r"]]],
    ["var with await", `var r = await nav_read("x")`, [["nav_read", ["x"], "r"]]],
    ["plain assignment", `r = nav_ls("src")`, [["nav_ls", ["src"], "r"]]],
    ["assignment with await", `r = await nav_ls("src")`, [["nav_ls", ["src"], "r"]]],
    ["positional object option", `const r = nav_read("A.b", {chunk: 1})`, [["nav_read", ["A.b", { chunk: 1 }], "r"]]],
    ["negative numbers, null, booleans", `const r = nav_read(-3, null, true, false, +2)`, [["nav_read", [-3, null, true, false, 2], "r"]]],
    ["template without expressions", "const r = nav_read(`a\\nb`)", [["nav_read", ["a\nb"], "r"]]],
    ["nested arrays and objects of literals", `const r = nav_read({a: [1, {b: "c"}], "quoted key": 2, 3: 4})`, [["nav_read", [{ a: [1, { b: "c" }], "quoted key": 2, 3: 4 }], "r"]]],
    ["two calls on one line keep their own targets", `const a = nav_info(); const b = nav_ls("x")`, [["nav_info", [], "a"], ["nav_ls", ["x"], "b"]]],
    ["tool names as property names are not references", `const s = nav_read("a"); const o = {nav_read: 1}; print(o.nav_read, s)`, [["nav_read", ["a"], "s"]]],
  ])("%s", (_label, code, expected) => {
    const result = interceptBlock(code, tools);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.calls.map((call) => [call.tool, call.args, call.target])).toEqual(expected);
  });
});

describe("rejected forms (nothing runs; every problem reported with line and column)", () => {
  test.each([
    ["bare call", `nav_info()`, 1, 1, /bare call/],
    ["bare awaited call", `await nav_info()`, 1, 7, /bare call/],
    ["nested in a call", `print(nav_info())`, 1, 7, /nested inside another expression/],
    ["member of the result", `const n = nav_ls("X").length`, 1, 11, /nested/],
    ["tool call as an argument of a tool call", `const r = nav_read(nav_info())`, 1, 20, /not a literal/],
    ["inside a function", `function f() { return nav_info() }`, 1, 23, /inside a function/],
    ["inside an arrow", `const f = () => nav_info()`, 1, 17, /inside an arrow function/],
    ["inside a class", `class A { m() { const r = nav_info() } }`, 1, 27, /inside a class/],
    ["inside a loop", `for (const f of [1]) { const r = nav_read("x") }`, 1, 34, /inside a loop/],
    ["inside while", `while (false) r = nav_info()`, 1, 19, /inside a loop/],
    ["inside if", `if (true) { const r = nav_read("a") }`, 1, 23, /inside an if statement/],
    ["inside try", `try { const r = nav_info() } catch {}`, 1, 17, /inside a try statement/],
    ["inside switch", `switch (1) { case 1: r = nav_info() }`, 1, 26, /inside a switch statement/],
    ["inside a bare block", `{ const r = nav_info() }`, 1, 13, /inside a block/],
    ["inside a ternary", `const r = ok ? nav_info() : 1`, 1, 16, /conditional/],
    ["variable argument", `const sym = "x"; const r = nav_read(sym)`, 1, 37, /'sym' is a variable/],
    ["spread argument", `const r = nav_read(...args)`, 1, 20, /spread/],
    ["spread inside an array", `const r = nav_read([...a])`, 1, 21, /spread/],
    ["spread inside an object", `const r = nav_read({...a})`, 1, 21, /spread/],
    ["computed key", `const r = nav_read({[k]: 1})`, 1, 21, /computed keys/],
    ["method in an object", `const r = nav_read({m() {}})`, 1, 21, /methods/],
    ["getter in an object", `const r = nav_read({get x() { return 1 }})`, 1, 21, /getters/],
    ["shorthand property", `const r = nav_read({x})`, 1, 21, /shorthand/],
    ["concatenation", `const r = nav_read("a" + "b")`, 1, 20, /computed expression/],
    ["template with an expression", "const r = nav_read(`a${b}`)", 1, 20, /template string/],
    ["undefined argument", `const r = nav_read(undefined)`, 1, 20, /undefined is not a JSON value/],
    ["regex argument", `const r = nav_read(/x/)`, 1, 20, /regular expression/],
    ["hostile __proto__ key", `const r = nav_read({__proto__: {polluted: 1}})`, 1, 21, /__proto__/],
    ["destructuring object target", `const {a} = nav_info()`, 1, 13, /destructuring/],
    ["destructuring array target", `const [a] = nav_info()`, 1, 13, /destructuring/],
    ["member target", `obj.x = nav_info()`, 1, 9, /plain variable/],
    ["computed member target", `obj["x"] = nav_info()`, 1, 12, /plain variable/],
    ["chained assignment", `x = y = nav_info()`, 1, 9, /chained/],
    ["compound assignment", `x += nav_info()`, 1, 6, /compound or logical/],
    ["logical assignment", `x ??= nav_info()`, 1, 7, /compound or logical/],
    ["two declarators", `const a = nav_info(), b = 2`, 1, 11, /one variable per tool call/],
    ["optional call", `const r = nav_info?.()`, 1, 11, /optional calls/],
    ["new", `const r = new nav_info()`, 1, 15, /not constructors/],
    ["tagged template", "const r = nav_info`x`", 1, 11, /template tags/],
    ["aliasing", `const f = nav_read`, 1, 11, /may only be called/],
    ["passing a tool as a value", `[1].map(nav_read)`, 1, 9, /may only be called/],
    ["re-declaring a tool", `const nav_read = 1`, 1, 7, /cannot be re-declared/],
    ["re-declaring as a function", `function nav_ls() {}`, 1, 10, /cannot be re-declared/],
    ["re-assigning a tool", `nav_read = 2`, 1, 1, /cannot be re-assigned/],
    ["assigning the result to a tool name", `const nav_ls = nav_info()`, 1, 1, /is a tool/],
    ["reserved prefix as a name", `const __rlm_x = 1`, 1, 7, /reserved prefix/],
    ["reserved prefix in a string", `print(globalThis["__rlm_rt"])`, 1, 18, /reserved prefix/],
    ["syntax error", `const = 1`, 1, 7, /SyntaxError/],
  ])("%s", (_label, code, line, column, message) => {
    const result = interceptBlock(code, tools);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]).toMatchObject({ line, column });
    expect(result.problems[0].message).toMatch(message);
  });

  test("every problem of the block is reported at once, in source order", () => {
    const code = ["const ok = nav_info()", "print(nav_ls('x'))", "if (ok) {", "  const r = nav_read(name)", "}"].join("\n");
    const result = interceptBlock(code, tools);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => problem.line)).toEqual([2, 4]);
  });

  test("messages that reject a call teach the accepted form", () => {
    const result = interceptBlock(`print(nav_info())`, tools);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems[0].message).toContain(ACCEPTED_FORM);
  });
});

describe("rewriting", () => {
  test.each([
    ["single call", `const info = nav_info()\nprint(info)`, `const info = __X0\nprint(info)`],
    ["await is replaced with the call", `r = await nav_read("a")`, `r = __X0`],
    ["two calls and a plain assignment on one line keep their own values", `const a = nav_info(); const z = 5; const b = nav_ls("x"); print(a, z, b)`, `const a = __X0; const z = 5; const b = __X1; print(a, z, b)`],
    ["multi-line arguments keep later line numbers", `const r = nav_read(\n  "a",\n  {chunk: 2}\n)\nboom()`, `const r = __X0\n\n\n\nboom()`],
  ])("%s", (_label, code, expected) => {
    const result = interceptBlock(code, tools);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const rewritten = rewriteBlock(code, result.calls, result.calls.map((_, index) => `__X${index}`));
    expect(rewritten).toBe(expected);
  });
});

describe("a tree the caller already parsed", () => {
  test.each([
    { label: "an accepted call", code: "const hits = search('x', {limit: 2})\nprint(hits)" },
    { label: "a rejected call", code: "if (ok) { const hits = search('x') }" },
  ])("gives the same result as parsing again ($label)", ({ code }) => {
    const tools = new Set(["search"]);
    expect(interceptBlock(code, tools, parseGuest(code))).toEqual(interceptBlock(code, tools));
  });
});
