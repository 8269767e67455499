import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { checkToolArguments } from "../../src/tools/tool-arguments.ts";
import { createNavTools, isNavError, type NavReadResult, type NavTools } from "../../src/nav/index.ts";
import { buildFixtureRepo, HUGE_LINES, type FixtureRepo } from "./fixture-repo.ts";

let repo: FixtureRepo;
let nav: NavTools;

beforeAll(async () => {
  repo = await buildFixtureRepo();
  nav = await createNavTools(repo.root, { cacheDir: false, maxReadChars: 4000 });
});

afterAll(async () => {
  await nav?.close();
  await repo?.remove();
});

function ok<T>(value: T): Exclude<T, { error: string }> {
  if (isNavError(value)) throw new Error(`unexpected error value: ${JSON.stringify(value)}`);
  return value as Exclude<T, { error: string }>;
}

describe("nav_info", () => {
  test("summarises files, languages, directories and HEAD, leaving out ignored files and .git", async () => {
    const info = await nav.info();
    expect(info.root).toBe("nav-repo");
    expect(info.head).toEqual({ commit: "0123456789abcdef0123456789abcdef01234567", branch: "main" });
    expect(info.directories).toEqual(["assets/", "big/", "c/", "cpp/", "go/", "java/", "lib/", "py/", "rust/", "scripts/", "src/"]);
    // 15 shipped or created files: ignored/, debug.log, src/generated.ts and .git/ are not among them.
    expect(info.files).toBe(18);
    expect(info.languages[0]).toEqual({ language: "typescript", files: 3, lines: HUGE_LINES + 60 + 13 });
    expect(info.languages.map((language) => language.language).sort()).toEqual(
      ["c", "cpp", "gitignore", "go", "java", "javascript", "markdown", "other", "python", "rust", "typescript"].sort(),
    );
    expect(info.symbols).toBeGreaterThan(1250 + 100);
  });
});

describe("nav_ls", () => {
  test("lists a directory with kinds, languages and line counts", async () => {
    expect(ok(await nav.ls("lib"))).toEqual({
      path: "lib",
      type: "dir",
      entries: [
        { name: "alias.js", type: "file", language: "javascript", lines: 20, size: expect.any(Number) },
        { name: "util.js", type: "file", language: "javascript", lines: 20, size: expect.any(Number) },
        { name: "view.jsx", type: "file", language: "javascript", lines: 9, size: expect.any(Number) },
      ],
    });
  });

  test("lists the root: directories with file counts, ignored and escaping paths absent, binary flagged", async () => {
    const root = ok(await nav.ls());
    if (root.type !== "dir") throw new Error("expected a directory");
    const names = root.entries.map((entry) => `${entry.type}:${entry.name}`);
    expect(names).toEqual(["dir:assets", "dir:big", "dir:c", "dir:cpp", "dir:go", "dir:java", "dir:lib", "dir:py", "dir:rust", "dir:scripts", "dir:src", "file:.gitignore", "file:README.md"]);
    const assets = ok(await nav.ls("assets"));
    expect(assets).toMatchObject({ type: "dir", entries: [{ name: "logo.png", type: "file", binary: true }] });
  });

  test("gives a file's top-level symbols", async () => {
    const listing = ok(await nav.ls("go/server.go"));
    if (listing.type !== "file") throw new Error("expected a file");
    expect(listing.symbols.map((symbol) => `${symbol.kind} ${symbol.name}`)).toEqual([
      "constant MaxConns",
      "variable defaultName",
      "struct Server",
      "interface Handler",
      "type Port",
      "function NewServer",
    ]);
  });

  test.each([
    ["a path#symbol target", "java/Outer.java#Outer.Inner"],
    ["an unambiguous qualified name", "Outer.Inner"],
  ])("gives a symbol's direct members for %s", async (_label, target) => {
    const listing = ok(await nav.ls(target));
    expect(listing).toMatchObject({ path: "java/Outer.java", type: "symbol", name: "Outer.Inner", kind: "class", startLine: 26, endLine: 32 });
    if (listing.type !== "symbol") throw new Error("expected a symbol");
    expect(listing.members.map((member) => member.name)).toEqual(["Outer.Inner.run", "Outer.Inner.Deeper"]);
  });

  test("an unknown path is an error value with suggestions", async () => {
    const result = await nav.ls("src/parsre.ts");
    expect(result).toMatchObject({ error: "no file or directory 'src/parsre.ts' in the repository (ignored files are not indexed)" });
    expect(isNavError(result) && result.didYouMean?.[0]).toBe("src/parser.ts");
  });
});

describe("nav_read", () => {
  test("reads a symbol by qualified name, overloads together, from the doc comment", async () => {
    const result = ok(await nav.read("Parser.parseExpression"));
    expect(result).toMatchObject({ path: "src/parser.ts", startLine: 11, endLine: 17, chunk: 1, chunks: 1, symbol: "Parser.parseExpression", kind: "method" });
    expect(result.text.split("\n")[0]).toBe("  /** Parses one expression. */");
    expect(result.text.split("\n").at(-1)).toBe("  }");
  });

  test("reads a symbol by bare member name when only one symbol has it", async () => {
    expect(ok(await nav.read("onRetry"))).toMatchObject({ path: "src/parser.ts", startLine: 29, endLine: 29, text: "    onRetry(attempt: number): void;", symbol: "Parser.Options.onRetry" });
  });

  test("reads path#symbol, a line range and a single line", async () => {
    expect(ok(await nav.read("rust/lib.rs#Point.new"))).toMatchObject({ startLine: 17, endLine: 20, text: "    /// Makes a point.\n    pub fn new(x: f64, y: f64) -> Self {\n        Point { x, y }\n    }" });
    expect(ok(await nav.read("go/server.go:29-30"))).toEqual({ path: "go/server.go", startLine: 29, endLine: 30, text: "// Start starts the server.\nfunc (s *Server) Start() error {", chunk: 1, chunks: 1 });
    expect(ok(await nav.read("README.md:1"))).toMatchObject({ startLine: 1, endLine: 1, text: "# Fixture repository" });
  });

  test("an ambiguous bare name returns the candidates, not a guess", async () => {
    expect(await nav.read("area")).toEqual({
      error: "'area' is ambiguous: 3 symbols match; read one of the candidates",
      candidates: ["cpp/shape.cpp#geo.Shape.area", "rust/lib.rs#Shape.area", "rust/lib.rs#<Point as Shape>.area"],
    });
  });

  test("an unknown name returns the closest existing names", async () => {
    expect(await nav.read("Parsr")).toEqual({ error: "no symbol named 'Parsr'", didYouMean: ["Parser"] });
    expect(await nav.read("src/parser.ts#parseExpresion")).toEqual({ error: "no symbol named 'parseExpresion' in src/parser.ts", didYouMean: ["src/parser.ts#Parser.parseExpression"] });
  });

  test("a long file comes in chunks that end on line boundaries and cover it exactly once", async () => {
    const first = ok(await nav.read("big/huge.ts"));
    expect(first.chunks).toBeGreaterThan(10);
    const pieces: NavReadResult[] = [first];
    for (let chunk = 2; chunk <= first.chunks; chunk++) pieces.push(ok(await nav.read("big/huge.ts", { chunk })));
    let expectedStart = 1;
    for (const piece of pieces) {
      expect(piece.startLine).toBe(expectedStart);
      expect(piece.text.split("\n")).toHaveLength(piece.endLine - piece.startLine + 1);
      expect(piece.text.length).toBeLessThanOrEqual(4000);
      expectedStart = piece.endLine + 1;
    }
    expect(expectedStart - 1).toBe(HUGE_LINES);
    expect(pieces.map((piece) => piece.text).join("\n").split("\n")[4996]).toBe("export function step1250(): number {");
    expect(await nav.read("big/huge.ts", { chunk: first.chunks + 1 })).toEqual({ error: `chunk ${first.chunks + 1} does not exist; this result has ${first.chunks} chunks` });
  });

  test("finds a symbol deep in the 5,000-line file", async () => {
    expect(ok(await nav.read("step0777"))).toMatchObject({ path: "big/huge.ts", startLine: 3105, endLine: 3107, text: "export function step0777(): number {\n  return 777; // huge body line\n}" });
  });

  test("refuses binary files and directories with error values", async () => {
    expect(await nav.read("assets/logo.png")).toEqual({ error: "'assets/logo.png' is a binary file (17 bytes); it cannot be read as text" });
    expect(await nav.read("src")).toEqual({ error: "'src' is a directory; list it with nav_ls or read a file in it" });
  });

  test("reads the symbol a directory's name also names, and offers each when several do", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-dir-symbol-"));
    try {
      await fs.mkdir(path.join(dir, "tools"));
      await fs.writeFile(path.join(dir, "tools", "a.py"), "x = 1\n");
      await fs.writeFile(path.join(dir, "one.py"), "def tools():\n    return 1\n");
      const single = await createNavTools(dir, { cacheDir: false });
      try {
        expect(await single.read("tools")).toMatchObject({ path: "one.py", symbol: "tools", startLine: 1, endLine: 2 });
        await fs.writeFile(path.join(dir, "two.py"), "def tools():\n    return 2\n");
      } finally {
        await single.close();
      }
      const twice = await createNavTools(dir, { cacheDir: false });
      try {
        const read = await twice.read("tools");
        expect(read).toEqual({ error: "'tools' is a directory, and symbols have that name too; list it with nav_ls, or read one of the candidates", candidates: ["one.py#tools", "two.py#tools"] });
        for (const candidate of (read as { candidates: string[] }).candidates) expect(await twice.read(candidate)).toMatchObject({ symbol: "tools" });
      } finally {
        await twice.close();
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe("nav_search", () => {
  test("finds literal matches case-insensitively with the innermost enclosing symbol", async () => {
    const result = ok(await nav.search("retry", { glob: "src/**" }));
    expect(result.truncated).toBe(false);
    expect(result.matches.map((match) => [match.path, match.line, match.column, match.symbol])).toEqual([
      ["src/parser.ts", 16, 46, "Parser.parseExpression"],
      ["src/parser.ts", 29, 7, "Parser.Options.onRetry"],
      ["src/parser.ts", 40, 3, "Node.retry"],
      ["src/parser.ts", 53, 17, "retryCount"],
      ["src/parser.ts", 54, 24, "retryCount"],
    ]);
    expect(result.matches[0].text).toBe('    return { kind: "expression", precedence, retry: retryCount(this.source) };');
  });

  test("names the symbol around a match as the file is after an edit the tools have seen, in a search repeated after it", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-search-edit-"));
    try {
      await fs.writeFile(path.join(dir, "a.py"), "def alpha():\n    needle = 1\n");
      await fs.writeFile(path.join(dir, "b.py"), "def other():\n    needle = 2\n");
      const tools = await createNavTools(dir, { cacheDir: false });
      try {
        const symbols = async () => ok(await tools.search("needle", { caseSensitive: true })).matches.map((match) => [match.path, match.line, match.symbol]);
        expect(await symbols()).toEqual([["a.py", 2, "alpha"], ["b.py", 2, "other"]]);
        expect(await symbols()).toEqual([["a.py", 2, "alpha"], ["b.py", 2, "other"]]);
        // A new version of the file (another size), which reading it makes the tools see.
        await fs.writeFile(path.join(dir, "a.py"), "# moved\ndef renamed_function():\n    needle = 10\n");
        expect(ok(await tools.read("a.py"))).toMatchObject({ path: "a.py" });
        expect(await symbols()).toEqual([["a.py", 3, "renamed_function"], ["b.py", 2, "other"]]);
        expect(await symbols()).toEqual([["a.py", 3, "renamed_function"], ["b.py", 2, "other"]]);
      } finally {
        await tools.close();
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  test("never searches ignored files, .git, binaries or symlinks that leave the repository", async () => {
    const paths = ok(await nav.search("retry", { limit: 1000 })).matches.map((match) => match.path);
    expect(new Set(paths)).toEqual(new Set(["README.md", "lib/alias.js", "lib/util.js", "py/models.py", "src/parser.ts"]));
    expect(ok(await nav.search("TOP SECRET")).matches).toEqual([]);
    expect(ok(await nav.search("IGNORED_SECRET")).matches).toEqual([]);
    expect(ok(await nav.search("generatedThing")).matches).toEqual([]);
  });

  test.each([
    // lib/alias.js is a symlink to lib/util.js inside the repository, so it is searched too.
    ["case-sensitive literal", "Retry", { caseSensitive: true }, ["lib/alias.js:2", "lib/util.js:2", "src/parser.ts:29"]],
    ["regex", "def \\w+\\(self, key", { regex: true }, ["py/models.py:30", "py/models.py:33", "py/models.py:35"]],
    ["glob without a slash matches file names", "return", { glob: "*.go" }, ["go/server.go:26", "go/server.go:32", "go/server.go:35"]],
  ] as const)("%s", async (_label, query, options, expected) => {
    const result = ok(await nav.search(query, options));
    expect(result.matches.map((match) => `${match.path}:${match.line}`)).toEqual(expected);
  });

  test("limit caps matches and sets truncated", async () => {
    const result = ok(await nav.search("huge body line", { limit: 7 }));
    expect(result.matches).toHaveLength(7);
    expect(result.truncated).toBe(true);
    expect(result.matches[6]).toMatchObject({ path: "big/huge.ts", line: 26, symbol: "step0007" });
  });

  test("searches symbol names with { symbols: true }", async () => {
    const result = ok(await nav.search("expression", { symbols: true }));
    // Each hit is where the name is written (line 11 is the overloads' doc comment), column included.
    expect(result.matches.map((match) => `${match.kind} ${match.symbol} ${match.path}:${match.line}:${match.column} ${match.text}`)).toEqual([
      "method Parser.parseExpression src/parser.ts:12:3 parseExpression(): Node",
      "method Parser.parseExpression src/parser.ts:13:3 parseExpression(precedence: number): Node",
      "method Parser.parseExpression src/parser.ts:14:3 parseExpression(precedence = 0): Node",
    ]);
    const regex = ok(await nav.search("^Outer\\.Inner\\.\\w+$", { symbols: true, regex: true, caseSensitive: true }));
    expect(regex.matches.map((match) => match.symbol)).toEqual(["Outer.Inner.run", "Outer.Inner.Deeper"]);
  });

  test("a bad pattern is an error value", async () => {
    expect(await nav.search("(unclosed", { regex: true })).toEqual({ error: "invalid regular expression: Invalid regular expression: /(unclosed/: Unterminated group" });
    expect(await nav.search("")).toMatchObject({ error: expect.stringContaining("query is empty") });
  });
});

describe("the tools as registered with a session", () => {
  test("are five tools with examples, and take positional arguments", async () => {
    expect(nav.tools.map((tool) => tool.name)).toEqual(["nav_info", "nav_ls", "nav_outline", "nav_read", "nav_search", "nav_refs"]);
    for (const tool of nav.tools) expect(tool.example).toMatch(new RegExp(`^const \\w+ = ${tool.name}\\(`));
    const search = nav.tools.find((tool) => tool.name === "nav_search")!;
    const check = checkToolArguments(search, ["Backoff", { caseSensitive: true, glob: "lib/util.js" }]);
    if (!check.ok) throw new Error(check.message);
    const result = await search.handler(check.args, { sessionId: "test", signal: new AbortController().signal });
    expect(result).toEqual({
      matches: [
        { path: "lib/util.js", line: 12, column: 14, text: "export class Backoff {", symbol: "Backoff" },
        { path: "lib/util.js", line: 16, column: 12, text: "    return Backoff.DEFAULT * 2 ** attempt;", symbol: "Backoff.next" },
      ],
      truncated: false,
    });
    const rejected = checkToolArguments(search, ["x", { fuzzy: true }]);
    expect(rejected.ok).toBe(false);
  });
});
