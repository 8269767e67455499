/**
 * For random trees (folders, files, `.gitignore` rules in any folder, symlinks to
 * folders and files inside and outside the root) and random shares of folders, a walk
 * that hands the share to a worker thread lists exactly what a walk on one thread lists.
 */
import fc from "fast-check";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ReadRule } from "../../src/access/read-rule.ts";
import { walkRepository } from "../../src/nav/repo-walk.ts";
import { fuzzParameters, fuzzTimeout } from "../fuzz/fuzz-settings.ts";

const FOLDERS = ["a", "a/b", "a/b/c", "a/d", "e", "e/f", "g"];
const NAMES = ["x.py", "y.log", "keep.log", "secret.pem", ".env", "z.txt"];
const RULES = ["*.log", "!keep.log", "b/", "c", "/e", "f/", "z.*", "a/d/"];

interface Tree {
  readonly files: [number, number][];
  readonly ignores: [number, number[]][];
  readonly links: [number, number, boolean][];
  readonly share: string[];
}

const tree: fc.Arbitrary<Tree> = fc.record({
  files: fc.array(fc.tuple(fc.integer({ min: -1, max: FOLDERS.length - 1 }), fc.integer({ min: 0, max: NAMES.length - 1 })), { maxLength: 20 }),
  ignores: fc.array(fc.tuple(fc.integer({ min: -1, max: FOLDERS.length - 1 }), fc.array(fc.integer({ min: 0, max: RULES.length - 1 }), { minLength: 1, maxLength: 3 })), { maxLength: 3 }),
  // A symlink in a folder, to a folder (inside, or outside when the flag is set).
  links: fc.array(fc.tuple(fc.integer({ min: -1, max: FOLDERS.length - 1 }), fc.integer({ min: 0, max: FOLDERS.length - 1 }), fc.boolean()), { maxLength: 3 }),
  share: fc.array(fc.oneof(fc.constantFrom(...FOLDERS), fc.constantFrom("a/link0", "e/link1", "missing", "a/b/x.py", "A", "../a")), { minLength: 1, maxLength: 4 }),
});

let base: string;
let outside: string;
let count = 0;

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "rlmkit-walk-property-")));
  outside = path.join(base, "outside");
  fs.mkdirSync(path.join(outside, "sub"), { recursive: true });
  fs.writeFileSync(path.join(outside, "sub", "o.py"), "o\n");
});

afterAll(() => {
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

function build(shape: Tree): string {
  const root = path.join(base, `repo${count++}`);
  const folder = (index: number) => (index < 0 ? root : path.join(root, FOLDERS[index]!));
  for (const name of FOLDERS) fs.mkdirSync(path.join(root, name), { recursive: true });
  for (const [at, name] of shape.files) fs.writeFileSync(path.join(folder(at), NAMES[name]!), "x\n");
  for (const [at, rules] of shape.ignores) fs.writeFileSync(path.join(folder(at), ".gitignore"), `${rules.map((rule) => RULES[rule]).join("\n")}\n`);
  shape.links.forEach(([at, target, leaves], index) => {
    const link = path.join(folder(at), `link${index}`);
    if (!fs.existsSync(link)) fs.symlinkSync(leaves ? path.join(outside, "sub") : folder(target), link);
  });
  return root;
}

describe("a walk with a second thread, on random trees", () => {
  test(
    "lists what a walk on one thread lists",
    () => {
      fc.assert(
        fc.property(tree, (shape) => {
          const root = build(shape);
          try {
            expect(walkRepository(root, new ReadRule(root), shape.share)).toEqual(walkRepository(root, new ReadRule(root)));
          } finally {
            fs.rmSync(root, { recursive: true, force: true });
          }
        }),
        fuzzParameters(0.1, 25),
      );
    },
    fuzzTimeout(0.1, 60_000),
  );
});
