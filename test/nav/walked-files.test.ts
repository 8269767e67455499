import { describe, expect, test } from "vitest";
import { comparePaths, type WalkedFile } from "../../src/nav/repo-walk.ts";
import { WalkedFiles } from "../../src/nav/walked-files.ts";

const file = (path: string, size = 1): WalkedFile => ({ path, size, mtimeMs: 1, ctimeMs: 1, dev: 1, ino: 1 });
// Path order is by UTF-16 code units: upper case before lower case, `-` and `.` before `/`, astral characters after the rest of the BMP's low range.
const PATHS = ["A.py", "a-b/c.py", "a.py", "a/b.py", "a/b/c.py", "b", "é.py", "😀/x.py", "\uFFFF.py"].sort(comparePaths);

describe("WalkedFiles", () => {
  test("finds every listed path and no other, in path order", () => {
    const files = new WalkedFiles(PATHS.map((path) => file(path)));
    expect(files.size).toBe(PATHS.length);
    expect([...files.keys()]).toEqual(PATHS);
    for (const path of PATHS) {
      expect(files.get(path)?.path).toBe(path);
      expect(files.has(path)).toBe(true);
    }
    for (const missing of ["", "a", "a/", "a/b", "A.PY", "b/", "zz", "0", "\uFFFF"]) {
      expect(files.get(missing)).toBeUndefined();
      expect(files.has(missing)).toBe(false);
    }
    expect(new WalkedFiles([]).get("a")).toBeUndefined();
  });

  test("takes a file's new version, and a list handed out before does not change", () => {
    const files = new WalkedFiles(PATHS.map((path) => file(path)));
    const before = files.list();
    files.set(file("a/b.py", 7));
    expect(files.get("a/b.py")?.size).toBe(7);
    expect(before.find((entry) => entry.path === "a/b.py")?.size).toBe(1);
    expect(files.list().find((entry) => entry.path === "a/b.py")?.size).toBe(7);
    expect(() => files.set(file("new.py"))).toThrow(/not a walked file/);
  });
});
