import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNavTools, isNavError, type NavTools, type OutlineNode } from "../../src/index.ts";
import { buildFixtureRepo, copyFixture, NAMES_FIXTURE_SOURCE, PROJECT_ROOT, type FixtureRepo } from "./fixture-repo.ts";

// The property: every symbol name nav prints (outline, ls, symbol search, the enclosing symbol of a
// text match) reads back with nav_read, exactly as printed, to the lines it was printed with.

interface Printed {
  readonly path: string;
  readonly name: string;
  readonly startLine: number;
  readonly endLine: number;
}

let repo: FixtureRepo;
let names: { root: string; remove: () => Promise<void> };
const opened: NavTools[] = [];

beforeAll(async () => {
  repo = await buildFixtureRepo();
  names = await copyFixture(NAMES_FIXTURE_SOURCE);
});

afterAll(async () => {
  await Promise.all(opened.map((nav) => nav.close()));
  await repo?.remove();
  await names?.remove();
});

async function open(root: string): Promise<NavTools> {
  const nav = await createNavTools(root, { cacheDir: false });
  opened.push(nav);
  return nav;
}

async function listFiles(nav: NavTools, directory = ""): Promise<string[]> {
  const listing = await nav.ls(directory);
  if (isNavError(listing) || listing.type !== "dir") throw new Error(`cannot list '${directory}'`);
  const files: string[] = [];
  for (const entry of listing.entries) {
    const full = directory ? `${directory}/${entry.name}` : entry.name;
    if (entry.type === "dir") files.push(...(await listFiles(nav, full)));
    else if (!entry.binary && !entry.large) files.push(full);
  }
  return files;
}

async function printedSymbols(nav: NavTools, files: readonly string[]): Promise<Printed[]> {
  const printed: Printed[] = [];
  const flatten = (file: string, nodes: readonly OutlineNode[]): void => {
    for (const node of nodes) {
      printed.push({ path: file, name: node.name, startLine: node.startLine, endLine: node.endLine });
      flatten(file, node.children ?? []);
    }
  };
  for (const file of files) {
    const outline = await nav.outline(file);
    if (isNavError(outline)) throw new Error(`${file}: ${outline.error}`);
    flatten(file, outline.symbols);
  }
  return printed;
}

// Reads a printed name as shown; an ambiguous one must offer `path#name` among its candidates, which then reads.
async function readBack(nav: NavTools, symbol: Printed): Promise<string[]> {
  const problems: string[] = [];
  let read = await nav.read(symbol.name);
  if (isNavError(read) && read.candidates) {
    const target = `${symbol.path}#${symbol.name}`;
    if (!read.candidates.includes(target) && read.candidates.length < 20) problems.push(`${symbol.name}: candidates ${JSON.stringify(read.candidates)} lack ${target}`);
    read = await nav.read(target);
  }
  if (isNavError(read)) return [...problems, `${symbol.path}#${symbol.name}: ${read.error}`];
  if (read.path !== symbol.path || read.symbol !== symbol.name || read.startLine > symbol.startLine || (read.chunks === 1 && read.endLine < symbol.endLine)) {
    problems.push(`${symbol.path}#${symbol.name} ${symbol.startLine}-${symbol.endLine} read back as ${read.path}#${read.symbol} ${read.startLine}-${read.endLine}`);
  }
  return problems;
}

// The last segment: `fmt` of `<Wrapper as fmt.Display>.fmt`, `operator==` of `geo.Stack.operator==`.
function ownName(name: string): string {
  const operator = name.search(/(^|\.)operator\b/);
  if (operator !== -1) return name.slice(name[operator] === "." ? operator + 1 : operator);
  let depth = 0;
  let start = 0;
  for (let index = 0; index < name.length; index++) {
    if ("<([".includes(name[index])) depth++;
    else if (">)]".includes(name[index])) depth--;
    else if (name[index] === "." && depth === 0) start = index + 1;
  }
  return name.slice(start);
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe.each([
  ["the fixture repository", () => repo.root],
  ["the fixture of hard names (#private, __dunder__, operators, generics, trait impls, Go receivers)", () => names.root],
  ["this project's own repository", () => PROJECT_ROOT],
])("every printed name reads back, on %s", (_label, root) => {
  let nav: NavTools;
  let files: string[];
  let symbols: Printed[];

  beforeAll(async () => {
    nav = await open(root());
    files = await listFiles(nav);
    symbols = await printedSymbols(nav, files);
  });

  test("outline names read back to their lines, and ls lists them as symbols", async () => {
    expect(symbols.length).toBeGreaterThan(50);
    const problems: string[] = [];
    for (const symbol of symbols) {
      problems.push(...(await readBack(nav, symbol)));
      const listing = await nav.ls(`${symbol.path}#${symbol.name}`);
      if (isNavError(listing) || listing.type !== "symbol" || listing.name !== symbol.name) problems.push(`ls ${symbol.path}#${symbol.name}: ${JSON.stringify(listing).slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
  });

  test("a symbol search for each name finds it where the name is written", async () => {
    const problems: string[] = [];
    const texts = new Map<string, string[]>();
    for (const symbol of symbols) {
      const hits = await nav.search(`^${escapeRegex(symbol.name)}$`, { symbols: true, regex: true, caseSensitive: true, glob: symbol.path, limit: 1000 });
      if (isNavError(hits)) {
        problems.push(`${symbol.name}: ${hits.error}`);
        continue;
      }
      const hit = hits.matches.find((match) => match.symbol === symbol.name && match.line >= symbol.startLine && match.line <= symbol.endLine);
      if (!hit) {
        problems.push(`${symbol.path}#${symbol.name} ${symbol.startLine}-${symbol.endLine}: not found by a symbol search`);
        continue;
      }
      if (!texts.has(symbol.path)) texts.set(symbol.path, (await fs.readFile(path.join(root(), symbol.path), "utf8")).split("\n"));
      const line = texts.get(symbol.path)?.[hit.line - 1] ?? "";
      const own = ownName(symbol.name);
      if (hit.line < symbol.startLine || hit.line > symbol.endLine || !line.slice(hit.column - 1).replace(/\s+/g, "").startsWith(own.replace(/\s+/g, ""))) {
        problems.push(`${symbol.path}#${symbol.name}: hit at ${hit.line}:${hit.column} '${line.trim()}' is not where '${own}' is written`);
      }
    }
    expect(problems).toEqual([]);
  });

  test("the enclosing symbol of every text match reads back over the matched line", async () => {
    const result = await nav.search("return", { limit: 400 });
    if (isNavError(result)) throw new Error(result.error);
    const problems: string[] = [];
    for (const match of result.matches) {
      if (!match.symbol) continue;
      const read = await nav.read(`${match.path}#${match.symbol}`);
      if (isNavError(read)) problems.push(`${match.path}#${match.symbol}: ${read.error}`);
      else if (read.chunks === 1 && (read.startLine > match.line || read.endLine < match.line)) problems.push(`${match.path}:${match.line} lies outside ${match.symbol} ${read.startLine}-${read.endLine}`);
    }
    expect(result.matches.filter((match) => match.symbol).length).toBeGreaterThan(30);
    expect(problems).toEqual([]);
  });

  test("every did-you-mean suggestion for a misspelt name reads", async () => {
    const problems: string[] = [];
    let suggested = 0;
    for (const symbol of symbols.filter((_, index) => index % 5 === 0)) {
      const misspelt = `${symbol.name}x`;
      const read = await nav.read(misspelt);
      if (!isNavError(read)) continue;
      for (const suggestion of read.didYouMean ?? []) {
        suggested++;
        const again = await nav.read(suggestion);
        if (isNavError(again)) problems.push(`${misspelt} suggested ${suggestion}, which answers: ${again.error}`);
      }
    }
    expect(suggested).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });
});

describe("hard names read by the string people write", () => {
  let nav: NavTools;

  beforeAll(async () => {
    nav = await open(names.root);
  });

  test.each([
    { label: "TS #private method", target: "ReplyModel.#classify", symbol: "ReplyModel.#classify", path: "ts/names.ts" },
    { label: "TS #private by its bare name", target: "classify", symbol: "ReplyModel.#classify", path: "ts/names.ts" },
    { label: "TSX #private method", target: "Panel.#renderTitle", symbol: "Panel.#renderTitle", path: "ts/panel.tsx" },
    { label: "JS #private method", target: "Queue.#drain", symbol: "Queue.#drain", path: "js/names.js" },
    { label: "Python dunder", target: "Vector.__eq__", symbol: "Vector.__eq__", path: "py/names.py" },
    { label: "C double-underscore function", target: "__sum_values", symbol: "__sum_values", path: "c/names.c" },
    { label: "C++ operator", target: "geo.Stack.operator==", symbol: "geo.Stack.operator==", path: "cpp/names.cpp" },
    { label: "C++ operator with ::", target: "geo::Stack::operator==", symbol: "geo.Stack.operator==", path: "cpp/names.cpp" },
    { label: "C++ operator new", target: "geo.Stack.operator new", symbol: "geo.Stack.operator new", path: "cpp/names.cpp" },
    { label: "C++ specialisation", target: "geo.Hash<int>.operator()", symbol: "geo.Hash<int>.operator()", path: "cpp/names.cpp" },
    { label: "C++ destructor", target: "geo::Stack::~Stack", symbol: "geo.Stack.~Stack", path: "cpp/names.cpp" },
    { label: "C++ function in an anonymous namespace", target: "bumpHidden", symbol: "bumpHidden", path: "cpp/names.cpp" },
    { label: "C++ struct member in an anonymous namespace", target: "Hidden.depth", symbol: "Hidden.depth", path: "cpp/names.cpp" },
    { label: "Rust trait impl", target: "<Wrapper as fmt.Display>.fmt", symbol: "<Wrapper as fmt.Display>.fmt", path: "rust/names.rs" },
    { label: "Rust trait impl with ::", target: "<Wrapper as fmt::Debug>::fmt", symbol: "<Wrapper as fmt.Debug>.fmt", path: "rust/names.rs" },
    { label: "Rust trait impl by its type", target: "Point.add", symbol: "<Point as Add>.add", path: "rust/names.rs" },
    { label: "Go pointer receiver", target: "(*Stack).Push", symbol: "Stack.Push", path: "go/names.go" },
    { label: "Go value receiver", target: "(Stack).Len", symbol: "Stack.Len", path: "go/names.go" },
    { label: "Java generic class member", target: "Names.first", symbol: "Names.first", path: "java/Names.java" },
  ])("$label: $target", async ({ target, symbol, path: file }) => {
    const read = await nav.read(target);
    expect(read).toMatchObject({ path: file, symbol });
  });

  test("two trait impls of one method are candidates, each readable", async () => {
    const read = await nav.read("Wrapper.fmt");
    expect(read).toEqual({
      error: "'Wrapper.fmt' is ambiguous: 2 symbols match; read one of the candidates",
      candidates: ["rust/names.rs#<Wrapper as fmt.Display>.fmt", "rust/names.rs#<Wrapper as fmt.Debug>.fmt"],
    });
    for (const candidate of (read as { candidates: string[] }).candidates) expect(await nav.read(candidate)).toMatchObject({ path: "rust/names.rs" });
  });
});
