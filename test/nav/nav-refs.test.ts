import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { refsRecall } from "../../bench/refs-recall.ts";
import { createNavTools, isNavError, type NavTools } from "../../src/index.ts";
import { copyFixture, NAMES_FIXTURE_SOURCE } from "./fixture-repo.ts";

let names: { root: string; remove: () => Promise<void> };
let nav: NavTools;

beforeAll(async () => {
  names = await copyFixture(NAMES_FIXTURE_SOURCE);
  nav = await createNavTools(names.root, { cacheDir: false });
});

afterAll(async () => {
  await nav?.close();
  await names?.remove();
});

async function refs(name: string, options?: { glob?: string; limit?: number }): Promise<string[]> {
  const result = await nav.refs(name, options);
  if (isNavError(result)) throw new Error(result.error);
  return result.matches.map((match) => `${match.reference} ${match.path}:${match.line}:${match.column} ${match.symbol ?? "-"}`);
}

describe("nav_refs per language", () => {
  // Each row: a name and every use of it in the fixture (kind, place, enclosing symbol), declarations left out.
  test.each([
    { label: "TypeScript: import and calls, through the asked qualifier first", name: "retryCount", expected: ["import ts/names.ts:1:18 -", "call ts/names.ts:10:26 ReplyModel.#classify", "call ts/parser.ts:9:26 Parser.parseExpression"] },
    { label: "TypeScript: a #private method called through this", name: "ReplyModel.#classify", expected: ["call ts/names.ts:16:37 ReplyModel.classifyAll"] },
    { label: "TSX: a component used as an element, a class imported and constructed", name: "ReplyModel", expected: ["import ts/panel.tsx:1:10 -", "call ts/panel.tsx:4:16 Panel.#model"] },
    { label: "TSX: an element", name: "Widget", expected: ["name ts/panel.tsx:7:13 Panel.#renderTitle"] },
    { label: "JavaScript: import, new and call", name: "Backoff", expected: ["import js/names.js:1:21 -", "call js/names.js:11:25 Queue.flush"] },
    { label: "Python: import and a call; a keyword argument is no use", name: "save", expected: ["import py/names.py:2:28 -", "call py/names.py:31:5 store"] },
    // Found by name: `model.get` is not written through `Model`, so it ranks with every other `.get`.
    { label: "Python: a method called over two lines", name: "Model.get", expected: ["call java/Names.java:14:31 Names.first", "call py/names.py:32:11 store"] },
    { label: "Python: attribute uses that are no calls", name: "label", expected: ["member py/names.py:35:41 store"] },
    { label: "Go: a method through a pointer", name: "(*Stack).Push", expected: ["call go/names.go:29:8 useStack"] },
    { label: "Go: a function of the package", name: "NewServer", expected: ["call go/names.go:30:12 useStack"] },
    { label: "Rust: Type::new through its path first, then other ::new calls", name: "Point.new", expected: ["call rust/names.rs:33:16 <Point as Add>.add", "call rust/names.rs:38:24 wrap_origin", "call rust/names.rs:39:41 wrap_origin", "call rust/names.rs:40:14 wrap_origin"] },
    { label: "Rust: a use declaration and a type", name: "Point", expected: ["type rust/lib.rs:10:6 -", "type rust/lib.rs:12:9 Point.new", "import rust/names.rs:4:12 -", "type rust/names.rs:29:14 -", "type rust/names.rs:30:19 <Point as Add>.Output", "type rust/names.rs:32:25 <Point as Add>.add", "type rust/names.rs:32:35 <Point as Add>.add", "name rust/names.rs:33:9 <Point as Add>.add", "type rust/names.rs:37:33 wrap_origin", "name rust/names.rs:38:17 wrap_origin", "name rust/names.rs:39:34 wrap_origin"] },
    { label: "Java: static and instance method calls", name: "Counter.add", expected: ["call java/Names.java:23:58 Names.total", "call rust/names.rs:39:30 wrap_origin"] },
    { label: "C: calls of a function declared in a header", name: "list_append", expected: ["call c/names.c:15:12 append_two", "call c/names.c:16:12 append_two"] },
    { label: "C: a struct field through a pointer (and a JavaScript method of the same name)", name: "next", expected: ["member c/names.c:10:47 __sum_values", "call js/names.js:12:13 Queue.flush"] },
    { label: "C++: a member call and a namespace function", name: "push", expected: ["call cpp/names.cpp:55:11 geo.useStack"] },
  ])("$label", async ({ name, expected }) => {
    expect(await refs(name)).toEqual(expected);
  });

  test("glob and limit work as in nav_search", async () => {
    expect(await refs("Point", { glob: "rust/names.rs", limit: 2 })).toEqual(["import rust/names.rs:4:12 -", "type rust/names.rs:29:14 -"]);
    const limited = await nav.refs("Point", { limit: 2 });
    expect(limited).toMatchObject({ truncated: true });
    expect(await refs("Point", { glob: "py/**" })).toEqual([]);
  });

  test("a name that is no identifier is an error value", async () => {
    expect(await nav.refs("geo.Stack.operator==")).toEqual({ error: "nav_refs looks up an identifier such as 'parse' or 'Parser.parse'; 'operator==' is not one (operators and empty names have no reference sites)" });
  });
});

const PYTHON_LIB = "/usr/lib/python3.11";
const hasPython = spawnSync("python3", ["-c", "pass"]).status === 0 && fs.existsSync(path.join(PYTHON_LIB, "json"));

describe.skipIf(!hasPython)("call sites against Python's own ast, on a slice of the standard library", () => {
  let slice: string;

  beforeAll(() => {
    slice = fs.mkdtempSync(path.join(os.tmpdir(), "rlmkit-refs-"));
    fs.cpSync(path.join(PYTHON_LIB, "json"), path.join(slice, "json"), { recursive: true, filter: (source) => !source.includes("__pycache__") });
    for (const file of ["textwrap.py", "shlex.py", "fnmatch.py"]) fs.copyFileSync(path.join(PYTHON_LIB, file), path.join(slice, file));
  });

  afterAll(() => {
    if (slice) fs.rmSync(slice, { recursive: true, force: true });
  });

  test("recall and precision of calls by name are at least 0.9 for every called name", async () => {
    const result = await refsRecall(slice, (counts) => [...counts.keys()]);
    expect(result.files).toBeGreaterThanOrEqual(7);
    expect(result.expected).toBeGreaterThan(300);
    expect({ recall: result.recall >= 0.9, precision: result.precision >= 0.9, missed: result.missed, extra: result.extra }).toMatchObject({ recall: true, precision: true });
  });
});
