/**
 * A first search on the native addon names each match's symbol from the disk cache's spans
 * (native/span_names.cc): the same names, null where no symbol is around the line, as the
 * JavaScript path gives (`EnclosingSymbols` over the spans it reads), on the shipped fixtures, on
 * this project's sources, and on names beyond ASCII and beyond the Basic Multilingual Plane.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { createNavTools, type NavSearchOptions, type NavSearchResult } from "../../src/index.ts";
import { EnclosingSymbols } from "../../src/nav/enclosing-symbol.ts";
import { nativeAddon } from "../../src/nav/native-addon.ts";
import { tempDir } from "../support/temp-dir.ts";
import { FIXTURE_SOURCE, NAMES_FIXTURE_SOURCE, PROJECT_ROOT } from "./fixture-repo.ts";

const UNICODE_FILES: Record<string, string> = {
  "unicode/names.py": "class Größe:\n    def fläche(self):\n        return self.wert\n\n    def 𝒻(self):\n        return self.wert\n\ndef été():\n    return 1\n",
  "unicode/names.js": "export class Ψ {\n  𝑓(x) {\n    return this.value + x;\n  }\n}\nfunction naïve() {\n  return this.value;\n}\n",
};

const QUERIES: readonly [string, NavSearchOptions][] = [
  ["return", {}],
  ["self", {}],
  ["this.", {}],
  ["def ", {}],
  ["function", { caseSensitive: false }],
  ["(", {}],
  ["\\w+\\(self", { regex: true }],
];

let corpora: string[] = [];

beforeAll(async () => {
  const base = tempDir("rlmkit-native-names-");
  corpora = [path.join(base, "fixtures"), path.join(base, "names"), path.join(base, "src"), path.join(base, "unicode")];
  await fs.cp(FIXTURE_SOURCE, corpora[0]!, { recursive: true });
  await fs.cp(NAMES_FIXTURE_SOURCE, corpora[1]!, { recursive: true });
  await fs.cp(path.join(PROJECT_ROOT, "src"), corpora[2]!, { recursive: true });
  for (const [relative, text] of Object.entries(UNICODE_FILES)) {
    await fs.mkdir(path.dirname(path.join(corpora[3]!, relative)), { recursive: true });
    await fs.writeFile(path.join(corpora[3]!, relative), text);
  }
});

afterEach(() => {
  delete process.env.RLMKIT_NATIVE_ADDON;
  vi.restoreAllMocks();
});

afterAll(() => {
  delete process.env.RLMKIT_NATIVE_ADDON;
});

// A first search of a new set of tools, as a new process makes it.
async function firstSearch(root: string, cacheDir: string | false, query: string, options: NavSearchOptions): Promise<NavSearchResult> {
  const nav = await createNavTools(root, { cacheDir });
  try {
    return (await nav.search(query, { limit: 1_000_000, ...options })) as NavSearchResult;
  } finally {
    await nav.close();
  }
}

describe.skipIf(!nativeAddon())("symbols named by the native scan", () => {
  test("are those the JavaScript path names, on every corpus and query; and the JavaScript naming is not used", async () => {
    let compared = 0;
    for (const root of corpora) {
      const cacheDir = tempDir("rlmkit-native-names-cache-");
      // The disk cache, made by a first set of tools: the next ones start on its list and its spans.
      const cold = await createNavTools(root, { cacheDir });
      await cold.info();
      await cold.close();
      for (const [query, options] of QUERIES) {
        const nameAt = vi.spyOn(EnclosingSymbols.prototype, "nameAt");
        const native = await firstSearch(root, cacheDir, query, options);
        const namedHere = nameAt.mock.calls.length;
        nameAt.mockRestore();
        process.env.RLMKIT_NATIVE_ADDON = "0";
        const plain = await firstSearch(root, false, query, options);
        delete process.env.RLMKIT_NATIVE_ADDON;
        expect(native, `${root}: ${query}`).toEqual(plain);
        if (native.matches.length > 0) expect(namedHere, `${root}: ${query}`).toBe(0);
        compared += native.matches.length;
      }
    }
    // Enough matches, with and without a symbol, that the comparison says something.
    expect(compared).toBeGreaterThan(2_000);
  }, 120_000);

  test("names a symbol beyond ASCII and beyond the Basic Multilingual Plane", async () => {
    const cacheDir = tempDir("rlmkit-native-names-cache-");
    const cold = await createNavTools(corpora[3]!, { cacheDir });
    await cold.info();
    await cold.close();
    const found = await firstSearch(corpora[3]!, cacheDir, "return", {});
    expect(found.matches.map((match) => match.symbol)).toEqual(expect.arrayContaining(["Größe.fläche", "Größe.𝒻", "été", "Ψ.𝑓", "naïve"]));
  });
});
