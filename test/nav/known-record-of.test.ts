/**
 * A search finds the record of each file with matches by the file's object, remembered across
 * searches (`RepositoryIndex.knownRecordOf`): it must give what a lookup by path gives, and never a
 * record the index has since replaced (a file found changed and analysed again while a search's
 * list still holds the object of its old version).
 */
import fs from "node:fs/promises";
import path from "node:path";
import { beforeEach, expect, test } from "vitest";
import { RepositoryIndex } from "../../src/nav/repo-index.ts";
import { tempDir } from "../support/temp-dir.ts";

let root: string;

beforeEach(async () => {
  root = tempDir("rlmkit-known-record-");
  await fs.writeFile(path.join(root, "a.py"), "def alpha():\n    return 1\n");
  await fs.writeFile(path.join(root, "b.py"), "def beta():\n    return 2\n");
});

const names = (record: { symbols: readonly { name: string }[] } | undefined) => record?.symbols.map((symbol) => symbol.name);

test("gives the record a lookup by path gives, and the one analysed anew once the index replaced it", async () => {
  const index = new RepositoryIndex(root, { cacheDir: false, maxFileBytes: 1024 * 1024 });
  const list = index.searchFiles();
  const a = list.find((file) => file.path === "a.py")!;
  // Not analysed yet: no record to give (a search analyses it first).
  expect(index.knownRecordOf(a)).toBeUndefined();
  await index.prepare(["a.py", "b.py"]);
  await index.record("a.py", false);
  const first = index.knownRecordOf(a);
  expect(names(first)).toEqual(["alpha"]);
  expect(index.knownRecordOf(a)).toBe(first);
  expect(index.knownRecordOf(a)).toBe(index.knownRecord("a.py"));
  // The file changes; the index sees it (as when a search's workers find it changed) and analyses it again.
  await fs.writeFile(path.join(root, "a.py"), "# moved\ndef renamed_function():\n    return 10\n");
  const fresh = await index.record("a.py");
  expect(names(fresh)).toEqual(["renamed_function"]);
  // The old list's object of a.py is never answered with the record the index replaced.
  expect(index.knownRecordOf(a)).not.toBe(first);
  expect(names(index.knownRecordOf(a) ?? (await index.record("a.py", false)))).toEqual(["renamed_function"]);
  await index.close();
});
