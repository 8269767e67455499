import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNavTools, type NavOutline, type NavTools, type OutlineNode } from "../../src/nav/index.ts";
import { extractSymbols } from "../../src/nav/extract-symbols.ts";
import { buildFixtureRepo, type FixtureRepo } from "./fixture-repo.ts";

let repo: FixtureRepo;
let nav: NavTools;

beforeAll(async () => {
  repo = await buildFixtureRepo();
  nav = await createNavTools(repo.root, { cacheDir: false });
});

afterAll(async () => {
  await nav?.close();
  await repo?.remove();
});

function flatten(nodes: readonly OutlineNode[]): string[] {
  return nodes.flatMap((node) => [`${node.kind} ${node.name} ${node.startLine}-${node.endLine}`, ...flatten(node.children ?? [])]);
}

async function outline(path: string): Promise<NavOutline> {
  const result = await nav.outline(path);
  if ("error" in result) throw new Error(result.error);
  return result;
}

// Every symbol of every file, in document order: kind, qualified name, 1-based inclusive lines
// (starting at the first decorator or doc comment).
const OUTLINES: [string, string, string[]][] = [
  [
    "TypeScript: class with overloads and a decorated getter, merged namespace, interface, type, enum, constant",
    "src/parser.ts",
    [
      "class Parser 1-23",
      "property Parser.depth 6-7",
      "constructor Parser.constructor 9-9",
      "method Parser.parseExpression 11-12",
      "method Parser.parseExpression 13-13",
      "method Parser.parseExpression 14-17",
      "method Parser.length 19-22",
      "namespace Parser 25-35",
      "interface Parser.Options 26-30",
      "property Parser.Options.strict 28-28",
      "method Parser.Options.onRetry 29-29",
      "class Parser.Cursor 32-34",
      "property Parser.Cursor.offset 33-33",
      "interface Node 37-41",
      "property Node.kind 38-38",
      "property Node.precedence 39-39",
      "property Node.retry 40-40",
      "type Precedence 43-43",
      "enum Token 45-48",
      "constant MAX_DEPTH 50-50",
      "function retryCount 52-55",
      "function memoize 57-60",
    ],
  ],
  [
    "TSX: component function and arrow component",
    "src/widget.tsx",
    ["interface WidgetProps 3-5", "property WidgetProps.title 4-4", "function Widget 7-11", "function SmallWidget 13-13"],
  ],
  [
    "JavaScript: async function, class with static field",
    "lib/util.js",
    ["function withRetry 1-10", "class Backoff 12-18", "property Backoff.DEFAULT 13-13", "method Backoff.next 15-17", "constant internal 20-20"],
  ],
  ["JSX: default-exported component", "lib/view.jsx", ["function View 1-9"]],
  [
    "Python: nested classes, decorators, @overload entries kept apart, docstrings",
    "py/models.py",
    [
      "constant MAX_ITEMS 4-4",
      "variable registry 5-5",
      "class Model 8-36",
      "property Model.table 11-11",
      "class Model.Meta 13-19",
      "property Model.Meta.ordering 16-16",
      "class Model.Meta.Index 18-19",
      "property Model.Meta.Index.fields 19-19",
      "constructor Model.__init__ 21-22",
      "method Model.label 24-27",
      "method Model.get 29-30",
      "method Model.get 32-33",
      "method Model.get 35-36",
      "function save 39-49",
    ],
  ],
  [
    "Go: struct with fields, interface, methods qualified by receiver",
    "go/server.go",
    [
      "constant MaxConns 5-6",
      "variable defaultName 8-8",
      "struct Server 10-15",
      "property Server.Name 13-13",
      "property Server.count 14-14",
      "method Server.Start 29-33",
      "method Server.Count 35-35",
      "interface Handler 17-20",
      "method Handler.Handle 19-19",
      "type Port 22-22",
      "function NewServer 24-27",
    ],
  ],
  [
    "Rust: attributes and doc comments, impl methods qualified by type (trait impls as <Type as Trait>), trait, module, macro",
    "rust/lib.rs",
    [
      "struct Point 3-8",
      "property Point.x 6-6",
      "property Point.y 7-7",
      "method Point.new 17-20",
      "method <Point as Shape>.area 24-26",
      "trait Shape 10-14",
      "method Shape.area 12-13",
      "enum Color 29-32",
      "constant ORIGIN 34-34",
      "type Meters 36-36",
      "module geometry 38-42",
      "function geometry.distance 39-41",
      "macro square 44-48",
    ],
  ],
  [
    "Java: nested classes dotted, overloads, constructor, javadoc and annotations",
    "java/Outer.java",
    [
      "class Outer 3-39",
      "property Outer.count 7-7",
      "constructor Outer.Outer 9-12",
      "method Outer.add 14-20",
      "method Outer.add 22-24",
      "class Outer.Inner 26-32",
      "method Outer.Inner.run 27-27",
      "class Outer.Inner.Deeper 29-31",
      "method Outer.Inner.Deeper.depth 30-30",
      "interface Outer.Listener 34-36",
      "method Outer.Listener.onEvent 35-35",
      "enum Outer.Mode 38-38",
    ],
  ],
  [
    "C header: macro, struct, typedef, prototypes (include guard skipped)",
    "c/list.h",
    [
      "macro LIST_MAX 4-4",
      "struct node 6-10",
      "property node.value 8-8",
      "property node.next 9-9",
      "type node_t 12-12",
      "function list_append 14-15",
      "function list_length 17-17",
    ],
  ],
  ["C source: global, enum, function definitions", "c/list.c", ["variable allocations 4-4", "enum color 6-6", "function list_append 8-16", "function list_length 18-26"]],
  [
    "C++: namespace, class with nested class, out-of-class definition, template",
    "cpp/shape.cpp",
    [
      "namespace geo 3-36",
      "class geo.Shape 5-17",
      "constructor geo.Shape.Shape 8-8",
      "method geo.Shape.~Shape 9-9",
      "method geo.Shape.area 10-10",
      "property geo.Shape.sides 11-11",
      "class geo.Shape.Builder 13-16",
      "method geo.Shape.Builder.build 15-15",
      "method geo.Shape.Builder.build 24-27",
      "struct geo.Size 19-22",
      "property geo.Size.width 20-20",
      "property geo.Size.height 21-21",
      "function geo.twice 29-32",
      "function geo.total 34-34",
    ],
  ],
  ["a file without extension is recognised by its shebang", "scripts/deploy", ["function main 5-6"]],
];

describe("nav_outline symbol trees", () => {
  test.each(OUTLINES)("%s", async (_label, path, expected) => {
    expect(flatten((await outline(path)).symbols)).toEqual(expected);
  });

  test("nests members under their container and keeps signatures and first doc lines", async () => {
    const result = await outline("src/parser.ts");
    const parser = result.symbols[0];
    expect(parser).toMatchObject({ name: "Parser", kind: "class", signature: "export class Parser", doc: "Parses expressions." });
    expect(parser.children?.map((child) => child.signature)).toEqual([
      "depth = 0",
      "constructor(private readonly source: string)",
      "parseExpression(): Node",
      "parseExpression(precedence: number): Node",
      "parseExpression(precedence = 0): Node",
      "get length(): number",
    ]);
    expect(parser.children?.[2].doc).toBe("Parses one expression.");
  });

  test.each([
    ["Python docstring", "py/models.py", "save", "def save(model, *, retry=3)", "Saves a model, retrying on failure."],
    ["Go comment block", "go/server.go", "Server", "type Server struct", "Server serves requests."],
    ["Rust /// with #[derive]", "rust/lib.rs", "Point", "pub struct Point", "A point in space."],
    ["Javadoc on an annotated method", "java/Outer.java", "Outer.add", "@Override public int add(int value)", "Adds an int."],
    ["C comment", "c/list.c", "list_append", "struct node *list_append(struct node *head, int value)", "Appends a value at the end."],
  ])("signature and doc: %s", async (_label, path, name, signature, doc) => {
    const all = (nodes: readonly OutlineNode[]): OutlineNode[] => nodes.flatMap((node) => [node, ...all(node.children ?? [])]);
    const symbol = all((await outline(path)).symbols).find((node) => node.name === name);
    expect(symbol).toMatchObject({ signature, doc });
  });

  test("languages without a grammar are outlined as empty, not guessed", async () => {
    expect(await nav.outline("README.md")).toEqual({ path: "README.md", language: "markdown", lines: 3, symbols: [] });
  });
});

describe("signatures are one line without their opening `{`, `:` or `;`", () => {
  test.each([
    ["python", "def  f(\n\ta,\n    b\n) -> int :\n    pass\n", "f", "def f( a, b ) -> int"],
    ["python", "def k(a, b):\n    pass\n", "k", "def k(a, b)"],
    ["python", "class  Spaced ( Base ) :\n    pass\n", "Spaced", "class Spaced ( Base )"],
    ["typescript", "function g(a: number)\u00a0\t{\n}\n", "g", "function g(a: number)"],
    ["typescript", "interface Shape  {\r\n  area(): number;\r\n}\r\n", "Shape.area", "area(): number"],
    ["c", "int h(void)  ;\n", "h", "int h(void)"],
    // Broken code, as the parser recovers it: what is not a decoration or a comment before the name belongs to the signature.
    ["python", "@a\n@b(\ndef f(): pass\n", "f", "@b( def f()"],
    ["python", "def #c\nname(a):\n  pass\n", "name", "name(a)"],
  ] as const)("%s: %j", async (grammar, source, name, signature) => {
    const symbols = await extractSymbols(source, grammar);
    expect(symbols.find((symbol) => symbol.name === name)?.signature).toBe(signature);
  });
});

describe("Python docstrings", () => {
  test.each([
    ["a plain docstring", 'def f():\n    """Does f."""\n    return 1\n', "Does f."],
    ["a raw docstring", "def f():\n    r'''Matches \\d.'''\n", "Matches \\d."],
    ["a two-letter prefix in capitals", 'def f():\n    Rb"Bytes doc."\n', "Bytes doc."],
    ["a longer run of prefix letters, as the grammar takes it", 'def f():\n    rbf"doc"\n', "doc"],
    ["on the line of the signature", 'def f(): "One line."\n', "One line."],
    ["a decorated class", '@dataclass\nclass C:\n    """A class."""\n    x: int = 0\n', "A class."],
    ["code first", 'def f():\n    x = 1\n    """Not a docstring."""\n', undefined],
    ["a comment first (comments are no statements)", 'def f():\n    # note\n    """After a comment."""\n', "After a comment."],
    ["two strings side by side", 'def f():\n    "a" "b"\n', undefined],
  ] as const)("%s", async (_label, source, doc) => {
    const [symbol] = await extractSymbols(source, "python");
    expect(symbol?.doc).toBe(doc);
  });
});

describe("a parse that takes too long is given up", () => {
  // Plain text named as TypeScript: tree-sitter's error recovery takes about a second for these 100 KB here.
  const slow = `class Alpha {}\n${"big file line NEEDLE\n".repeat(5000)}class Omega {}\n`;

  test("within its time, the file's symbols; past it, none; and the next file parses as usual", async () => {
    expect((await extractSymbols(slow, "typescript")).map((symbol) => symbol.name)).toEqual(["Alpha", "Omega"]);
    expect(await extractSymbols(slow, "typescript", 50)).toEqual([]);
    expect((await extractSymbols("class Beta {}\n", "typescript", 50)).map((symbol) => symbol.name)).toEqual(["Beta"]);
  });
});
