/**
 * What a block may rely on about the variables of earlier blocks: the REPL
 * semantics that the rewrite in sandbox/repl-rewrite.ts must keep, whatever it
 * does to make top-level code fast. Each row is a sequence of blocks run in one
 * sandbox; every block but the last must succeed, and the last one's output (or
 * answer, or error) is checked.
 */
import { afterEach, describe, expect, test } from "vitest";
import { isolateSandboxFactory, type ExecutionResult, type Sandbox } from "../../src/index.ts";

const opened: Sandbox[] = [];

async function open(): Promise<Sandbox> {
  const sandbox = await isolateSandboxFactory.create({ timeoutMs: 2_000, memoryLimitMb: 32 });
  opened.push(sandbox);
  return sandbox;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((sandbox) => sandbox.dispose()));
});

async function runAll(blocks: readonly string[]): Promise<ExecutionResult> {
  const sandbox = await open();
  let result: ExecutionResult | undefined;
  for (const [index, block] of blocks.entries()) {
    result = await sandbox.execute(block);
    if (index < blocks.length - 1) expect(result.error, `block ${index + 1}: ${block}`).toBeUndefined();
  }
  return result!;
}

interface Row {
  readonly label: string;
  readonly blocks: readonly string[];
  readonly output: string;
}

function rows(table: readonly Row[]): void {
  test.for(table)("$label", async ({ blocks, output }) => {
    const result = await runAll(blocks);
    expect(result.error).toBeUndefined();
    expect(result.output).toBe(output);
  });
}

describe("closures made in one block see later assignments", () => {
  rows([
    { label: "a closure reads a variable a later block assigns", blocks: ["let x = 1; const get = () => x", "x = 2", "print(get())"], output: "2\n" },
    { label: "a closure's assignment is seen by a later block", blocks: ["let count = 0; const inc = () => count++", "inc(); inc()", "print(count)"], output: "2\n" },
    { label: "a closure sees a later re-declaration", blocks: ["const base = 10", "const add = (n) => n + base", "const base = 20", "print(add(1))"], output: "21\n" },
    { label: "a function sees a variable first declared in a later block", blocks: ["function show() { return total }", "let total = 0\nfor (let i = 0; i < 10; i++) total += i\nprint(show())"], output: "45\n" },
    { label: "a function from an earlier block, called half-way through a loop, sees the loop's running value", blocks: ["function peek() { return sum }", "let sum = 0, seen = []\nfor (let i = 1; i <= 4; i++) { sum += i; seen.push(peek()) }\nprint(seen.join(' '))"], output: "1 3 6 10\n" },
    { label: "a function from an earlier block assigns a variable the current block then reads", blocks: ["function bump() { total += 100 }", "let total = 1\nbump()\nprint(total)"], output: "101\n" },
    { label: "a closure made in the same block as a loop sees the loop's result later", blocks: ["let acc = 0\nfor (let i = 0; i < 5; i++) acc += i\nconst readAcc = () => acc", "acc = acc * 10", "print(readAcc())"], output: "100\n" },
    { label: "a variable assigned in a loop of one block is read by a closure of a later one", blocks: ["let n = 0\nfor (let i = 0; i < 3; i++) n += 2", "const twice = () => n * 2", "n = 5", "print(twice())"], output: "10\n" },
    { label: "an async closure resumes after an await and sees the assignment made meanwhile", blocks: ["const later = async () => { await null; return flag }", "let flag = 'a'\nconst pending = later()\nflag = 'b'\nprint(await pending)"], output: "b\n" },
    { label: "a callback run during an await sees values assigned before the await", blocks: ["let log = []; const note = () => log.push(stage)", "let stage = 1\nconst p = Promise.resolve().then(note)\nstage = 2\nawait p\nstage = 3\nnote()\nprint(log.join(' '))"], output: "2 3\n" },
    { label: "a closure that writes a variable, called from a loop", blocks: ["let hits = 0; const hit = () => { hits += 1 }", "for (let i = 0; i < 7; i++) hit()\nprint(hits)"], output: "7\n" },
    { label: "a function calls a helper that a later block declares anew", blocks: ["function helper() { return 1 }\nfunction caller() { return helper() }", "function helper() { return 2 }", "print(caller(), helper())"], output: "2 2\n" },
    { label: "a function calls a helper that a later block assigns", blocks: ["function helper() { return 1 }\nfunction caller() { return helper() }", "helper = () => 3", "print(caller())"], output: "3\n" },
    { label: "a function of a later block is called by a closure of an earlier one", blocks: ["const run = () => step()", "function step() { return 'new' }\nprint(run())"], output: "new\n" },
  ]);
});

describe("re-declaration across blocks", () => {
  rows([
    { label: "let, then const", blocks: ["let a = 1", "const a = 2", "print(a)"], output: "2\n" },
    { label: "const, then let, then assignment", blocks: ["const a = 1", "let a = 2", "a += 1", "print(a)"], output: "3\n" },
    { label: "var, then let", blocks: ["var a = 1", "let a = 'b'", "print(a)"], output: "b\n" },
    { label: "let, then var without initialiser keeps the value", blocks: ["let a = 1", "var a", "print(a)"], output: "1\n" },
    { label: "const, then function", blocks: ["const f = 1", "function f() { return 'fn' }", "print(f())"], output: "fn\n" },
    { label: "function, then const", blocks: ["function f() { return 1 }", "const f = 'value'", "print(f)"], output: "value\n" },
    { label: "class, then let", blocks: ["class K {}", "let K = 3", "print(K)"], output: "3\n" },
    { label: "let, then class", blocks: ["let K = 3", "class K { static v = 4 }", "print(K.v)"], output: "4\n" },
    { label: "a re-declared name reads its earlier value before the new declaration runs", blocks: ["let w = 1", "print(w)\nlet w = 2\nprint(w)"], output: "1\n2\n" },
    { label: "a function is usable before its declaration in the same block", blocks: ["print(early())\nfunction early() { return 'hoisted' }"], output: "hoisted\n" },
    { label: "a function calls a helper declared after it in the same block", blocks: ["const out = [1, 2].map(double)\nfunction double(n) { return helper(n) }\nfunction helper(n) { return n * 2 }\nprint(out)"], output: "[2, 4]\n" },
    { label: "a top-level function keeps its name and its source text", blocks: ["async function load(a, b) { return a + b }\nfunction* pairs() { yield 1 }", "print(load.name, pairs.name, String(load), load.length)"], output: "load pairs async function load(a, b) { return a + b } 2\n" },
    { label: "a recursive function calls itself", blocks: ["function fact(n) { return n <= 1 ? 1 : n * fact(n - 1) }", "print(fact(6))"], output: "720\n" },
    { label: "a function named like a var below the top level shares that var", blocks: ["function g() { return 'fn' }\nif (false) { var g = 1 }\nprint(typeof g)"], output: "function\n" },
    { label: "a directive right before a function", blocks: ["'use strict';function f() { return 1 }\nprint(f())"], output: "1\n" },
    { label: "two directives right before a function, in a block with locals", blocks: ["'use strict';'x';function g() { return 2 }\nlet n = 0\nfor (; n < 3; ) n++\nprint(g(), n)"], output: "2 3\n" },
    { label: "a function the block wraps calls the wrapper when it recurses, and later blocks call the wrapper", blocks: ["let calls = 0\nfunction fib(n) { calls++; return n < 2 ? n : fib(n - 1) + fib(n - 2) }\nconst memo = (fn) => { const seen = new Map(); return (n) => { if (!seen.has(n)) seen.set(n, fn(n)); return seen.get(n) } }\nfib = memo(fib)\nprint(fib(20), calls)", "print(fib(20), calls)"], output: "6765 21\n" },
    { label: "a function that replaces itself on its first call", blocks: ["let inits = 0\nfunction config() { inits++; const c = { a: 1 }; config = () => c; return c }\nconfig(); config(); config()\nprint(inits)"], output: "1\n" },
    { label: "a class a block assigns anew is the new value in later blocks", blocks: ["class K { static v = 1 }\nK = class { static v = 2 }", "print(K.v)"], output: "2\n" },
    { label: "an assignment to a class's name before its declaration that does not run", blocks: ["if (false) K = 1\ntry { K = 2 } catch { }\nclass K { static v = 1 }", "print(K.v)"], output: "1\n" },
    { label: "a function named like a read-only built-in is the block's own", blocks: ["function Infinity() { return 'mine' }\nprint(Infinity())"], output: "mine\n" },
    { label: "a strict block assigns a function named like a runtime global", blocks: ["'use strict'\nfunction console() { return 1 }\nconsole = () => 2\nprint(console())"], output: "2\n" },
    { label: "a function named like a runtime global is the block's own", blocks: ["function console() { return 'mine' }\nprint(typeof console, console())"], output: "function mine\n" },
    { label: "a variable only assigned in a later block keeps the assignment", blocks: ["let count = 0", "for (let i = 0; i < 5; i++) count += 2", "print(count)"], output: "10\n" },
    { label: "destructuring re-declares every name", blocks: ["let a = 1, b = 2", "const [b2, a2] = [a, b]; let {a: b3, ...rest} = {a: 7, z: 8}", "print(a2, b2, b3, rest)"], output: "2 1 7 {z: 8}\n" },
    { label: "a top-level variable is a property of the global object", blocks: ["let g1 = 5\nprint(globalThis.g1)", "print(globalThis.g1 + 1)"], output: "6\n" },
    { label: "direct eval sees and assigns top-level variables", blocks: ["let e1 = 1\neval('e1 = e1 + 1')\nprint(e1)", "print(e1)"], output: "2\n" },
    { label: "a function declared next to a loop's variables persists", blocks: ["let n = 0\nfor (let i = 0; i < 3; i++) n += i\nfunction show() { return 'n=' + n }", "print(show(), n)"], output: "n=3 3\n" },
    { label: "a block with a directive prologue keeps its functions and variables", blocks: ["'use strict'\nlet m = 2\nfunction twice() { return m * 2 }\nfor (let i = 0; i < 2; i++) m += 1", "print(twice(), m)"], output: "8 4\n" },
    { label: "a for-of loop over a top-level variable's lines", blocks: ["const text = 'a\\nbb\\nccc'", "let longest = ''\nfor (const line of text.split('\\n')) if (line.length > longest.length) longest = line\nprint(longest)"], output: "ccc\n" },
  ]);
});

describe("top-level await", () => {
  rows([
    { label: "an awaited value in a declaration", blocks: ["const v = await Promise.resolve(7)", "print(v)"], output: "7\n" },
    { label: "awaits inside a loop that accumulates", blocks: ["let total = 0\nfor (let i = 0; i < 3; i++) total += await Promise.resolve(i)", "print(total)"], output: "3\n" },
    { label: "for-await over values", blocks: ["let s = ''\nfor await (const part of ['a', 'b']) s += part\nprint(s)"], output: "ab\n" },
    { label: "a value assigned after an await persists", blocks: ["let stage = 'before'\nawait null\nstage = 'after'", "print(stage)"], output: "after\n" },
  ]);
});

describe("a block that throws half-way keeps what it assigned before the throw", () => {
  test.for([
    { label: "declarations before the throw persist, later ones keep their old value", before: ["let before = 'old', after = 'old'"], stopping: "before = 'new'\nnull.x\nafter = 'never'", after: "print(before, after)", output: "new old\n" },
    { label: "a loop's running value at the throw persists", before: [], stopping: "let total = 0\nfor (let i = 0; i < 10; i++) { total += i; if (i === 4) throw new Error('stop') }", after: "print(total)", output: "10\n" },
    { label: "a name first declared after the throw exists and is undefined", before: [], stopping: "null.x\nconst late = 1", after: "print(typeof late, late)", output: "undefined undefined\n" },
    { label: "a value assigned before FINAL persists", before: [], stopping: "let answer = 'x'\nFINAL(answer)\nanswer = 'y'", after: "print(answer)", output: "x\n" },
    { label: "a value assigned before a caught FINAL and after it persists", before: [], stopping: "let stage = 1\ntry { FINAL(stage) } catch {}\nstage = 2", after: "print(stage)", output: "2\n" },
  ])("$label", async ({ before, stopping, after, output }) => {
    const sandbox = await open();
    for (const block of before) expect((await sandbox.execute(block)).error).toBeUndefined();
    const stopped = await sandbox.execute(stopping);
    expect(stopped.error !== undefined || stopped.final !== undefined).toBe(true);
    const last = await sandbox.execute(after);
    expect(last.error).toBeUndefined();
    expect(last.output).toBe(output);
  });
});

describe("FINAL_VAR answers with a top-level variable", () => {
  test.for([
    { label: "declared in the same block", blocks: ["const answer = [1, 2]\nFINAL_VAR('answer')"], value: [1, 2] },
    { label: "declared in an earlier block", blocks: ["let answer = 'early'", "FINAL_VAR('answer')"], value: "early" },
    { label: "assigned in a loop of the same block", blocks: ["let sum = 0\nfor (let i = 1; i <= 4; i++) sum += i\nFINAL_VAR('sum')"], value: 10 },
    { label: "assigned and answered inside one try statement", blocks: ["let result = 'none'\ntry {\n  result = 'computed'\n  FINAL_VAR('result')\n} catch (error) { throw error }"], value: "computed" },
    { label: "answered from a function of an earlier block", blocks: ["function answerWith(name) { FINAL_VAR(name) }", "let best = 42\nanswerWith('best')"], value: 42 },
    { label: "named by a computed string", blocks: ["let part1 = 'p'\nconst which = 'part' + 1\nFINAL_VAR(which)"], value: "p" },
  ])("$label", async ({ blocks, value }) => {
    const result = await runAll(blocks);
    expect(result.error).toBeUndefined();
    expect(result.final).toEqual({ value });
  });
});

describe("errors keep the model's line and column", () => {
  // `at` is the token the engine reports: its last occurrence on the line gives the column.
  test.for([
    { label: "in a loop after declarations", code: "let total = 0\nconst rows = [1, 2]\nfor (const r of rows) total += r.x.y", line: 3, at: "y" },
    { label: "on line 1 after a declaration", code: "let a = 1; a.b.c", line: 1, at: "c" },
    { label: "after an await, on a line with a declaration", code: "await null\nlet q = {}; q.r.s", line: 2, at: "s" },
    { label: "inside a function declared in the block", code: "let n = 1\nfunction f() {\n  return n.x.y\n}\nf()", line: 3, at: "y" },
    { label: "in the last line, after a loop", code: "let s = 0\nfor (let i = 0; i < 3; i++) s += i\nundefinedName", line: 3, at: "undefinedName" },
    { label: "in a declaration's initialiser after a loop on the same line", code: "let s = 0; for (let i = 0; i < 3; i++) s += i; const bad = s.x.y", line: 1, at: "y" },
  ])("$label", async ({ code, line, at }) => {
    const sandbox = await open();
    const result = await sandbox.execute(code);
    const column = code.split("\n")[line - 1]!.lastIndexOf(at) + 1;
    expect(result.error).toMatchObject({ kind: "runtime", line, column });
  });
});

describe("valid script that the wrapper must not break", () => {
  rows([
    { label: "an HTML close comment (-->) on the first line", blocks: ["--> a comment, valid at the start of a script\nprint('ran')"], output: "ran\n" },
    { label: "an HTML close comment after a comment on the first line", blocks: ["/* note */ --> more\nlet v = 1\nprint(v)"], output: "1\n" },
    { label: "an HTML close comment at the start of a later line", blocks: ["print(1)\n--> comment\nprint(2)"], output: "1\n2\n" },
  ]);
});
