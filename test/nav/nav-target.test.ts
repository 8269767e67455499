import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ReadRule } from "../../src/access/read-rule.ts";
import type { NavContext } from "../../src/nav/nav-context.ts";
import { parseTarget } from "../../src/nav/nav-target.ts";
import { RepositoryIndex } from "../../src/nav/repo-index.ts";
import { looksLikePath, namesSymbol, normalizeSymbolName, plainName, splitQualified } from "../../src/nav/symbol-names.ts";
import { TextSearchEngine } from "../../src/nav/text-search.ts";
import { buildFixtureRepo, type FixtureRepo } from "./fixture-repo.ts";

let repo: FixtureRepo;
let context: NavContext;

beforeAll(async () => {
  repo = await buildFixtureRepo();
  const index = new RepositoryIndex(repo.root, { cacheDir: false, maxFileBytes: 1024 * 1024 });
  context = { index, engine: new TextSearchEngine(5000), readRule: new ReadRule(repo.root), maxFileBytes: 1024 * 1024, maxReadChars: 20_000, searchFiles: () => index.searchFiles() };
});

afterAll(async () => {
  await context?.engine.close();
  await repo?.remove();
});

describe("parseTarget: the one rule for path or symbol", () => {
  test.each([
    { label: "the root", target: "", expected: { type: "path", resolved: { type: "dir", path: "" } } },
    { label: "a directory", target: "src", expected: { type: "path", resolved: { type: "dir", path: "src" } } },
    { label: "a file", target: "src/parser.ts", expected: { type: "path", resolved: { type: "file", path: "src/parser.ts" } } },
    { label: "a line range", target: "go/server.go:29-30", expected: { type: "range", path: "go/server.go", startLine: 29, endLine: 30 } },
    { label: "one line", target: "README.md:1", expected: { type: "range", path: "README.md", startLine: 1, endLine: 1 } },
    { label: "file#symbol", target: "src/parser.ts#Parser.parse", expected: { type: "symbol", name: "Parser.parse", file: "src/parser.ts", pathLike: false } },
    // The `#` of a private name is part of the name, because `Model.` is no file.
    { label: "a #private member", target: "Model.#classify", expected: { type: "symbol", name: "Model.#classify", pathLike: false } },
    { label: "file#private member", target: "src/parser.ts#Model.#classify", expected: { type: "symbol", name: "Model.#classify", file: "src/parser.ts", pathLike: false } },
    { label: "C++ scope", target: "geo::Shape::area", expected: { type: "symbol", name: "geo.Shape.area", pathLike: false } },
    { label: "a C++ destructor is no home-relative path", target: "Shape::~Shape", expected: { type: "symbol", name: "Shape.~Shape", pathLike: false } },
    { label: "a Go pointer receiver", target: "(*Server).Start", expected: { type: "symbol", name: "Server.Start", pathLike: false } },
    { label: "a Go value receiver", target: "(Server).Count", expected: { type: "symbol", name: "Server.Count", pathLike: false } },
    { label: "a Rust trait method", target: "<Point as Shape>::area", expected: { type: "symbol", name: "<Point as Shape>.area", pathLike: false } },
    { label: "an operator with a slash", target: "Ratio::operator/", expected: { type: "symbol", name: "Ratio.operator/", pathLike: false } },
    { label: "a missing path", target: "src/parsre.ts", expected: { type: "symbol", name: "src/parsre.ts", pathLike: true } },
    { label: "a missing file before #", target: "src/nope.ts#Parser", expected: { type: "missing-path", path: "src/nope.ts" } },
    { label: "a directory before #", target: "src#Parser", expected: { error: "'src' is a directory; write 'file#Name', e.g. 'src/index.ts#main'" } },
    { label: "a path leaving the root", target: "../secret.ts", expected: { error: expect.stringContaining("leaves the repository") } },
  ])("$label: $target", ({ target, expected }) => {
    expect(parseTarget(context, target)).toEqual(expected);
  });
});

describe("symbol names", () => {
  test.each([
    { label: "dotted", name: "a.b.c", segments: ["a", "b", "c"] },
    { label: "a dot inside a generic", name: "Hash<std.string>.operator()", segments: ["Hash<std.string>", "operator()"] },
    { label: "a trait impl", name: "<Wrapper as fmt.Display>.fmt", segments: ["<Wrapper as fmt.Display>", "fmt"] },
    { label: "an operator with punctuation", name: "Vec.operator->", segments: ["Vec", "operator->"] },
    { label: "operator< does not open a generic", name: "Vec.operator<", segments: ["Vec", "operator<"] },
    { label: "a private member", name: "Model.#classify", segments: ["Model", "#classify"] },
  ])("splitQualified: $label", ({ name, segments }) => {
    expect(splitQualified(name)).toEqual(segments);
  });

  test.each([
    { query: "Model.#classify", name: "Model.#classify", expected: true },
    { query: "classify", name: "Model.#classify", expected: true },
    { query: "#classify", name: "Model.classify", expected: false },
    { query: "Point.fmt", name: "<Point as Display>.fmt", expected: true },
    { query: "fmt", name: "<Point as Display>.fmt", expected: true },
    { query: "parse", name: "Parser.parseExpression", expected: false },
    { query: "Parser.parse", name: "mod.Parser.parse", expected: true },
  ])("namesSymbol($query, $name) is $expected", ({ query, name, expected }) => {
    expect(namesSymbol(query, name)).toBe(expected);
  });

  test.each([
    ["src/a.ts", true],
    ["a.py", true],
    ["Parser.parse", false],
    ["os.path", false],
    ["Shape.operator/", false],
    ["<Point as Display>.fmt", false],
  ] as const)("looksLikePath(%s) is %s", (target, expected) => {
    expect(looksLikePath(target)).toBe(expected);
  });

  test("plain and normalised forms", () => {
    expect(plainName("<Point as From<u32>>.from")).toBe("Point.from");
    expect(normalizeSymbolName(" (*Stack[T]).Push ")).toBe("Stack.Push");
    expect(normalizeSymbolName("pkg.(*Server).Start")).toBe("pkg.Server.Start");
  });
});
