/**
 * The matches made from a native literal scan's answer (native-matches.ts), on answers written out by
 * hand: where the search is cut, which files count as searched or changed, and the columns of lines
 * beyond ASCII. (native-first-search.test.ts compares the whole path with the JavaScript scan.)
 */
import { describe, expect, test } from "vitest";
import type { NativeScanReply } from "../../src/nav/native-addon.ts";
import { nativeLiteralMatches } from "../../src/nav/native-matches.ts";
import type { SearchFile } from "../../src/nav/text-scan.ts";

// What the scan saw of a file: its bytes read (-1 unreadable, -2 not read), whether it looks binary, and its lines hit as
// (line number, the hit's byte offset in the line, the line's text).
interface Seen {
  readonly length: number;
  readonly binary?: boolean;
  readonly lines?: readonly (readonly [number, number, string])[];
}

// The answer the addon gives for these files, in its layout (native/literal_scan.cc).
function replyOf(seen: readonly Seen[]): NativeScanReply {
  const files: number[] = [];
  const hits: number[] = [];
  const chunks: Buffer[] = [];
  let offset = 0;
  seen.forEach((file, index) => {
    files.push(file.length, file.binary ? 1 : 0, file.lines?.length ?? 0);
    for (const [line, hit, text] of file.lines ?? []) {
      const bytes = Buffer.from(text, "utf8");
      hits.push(index, line, hit, offset, bytes.length, /^[\x00-\x7f]*$/.test(text) ? 1 : 0);
      chunks.push(bytes);
      offset += bytes.length;
    }
  });
  const bytes = Buffer.concat(chunks);
  return { files: Int32Array.from(files), hits: Int32Array.from(hits), bytes: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length), stopped: 0 };
}

const listed = (sizes: readonly number[]): SearchFile[] => sizes.map((size, index) => ({ path: `f${index}.py`, size, mtimeMs: 0 }));
const rows = (matches: ReturnType<typeof nativeLiteralMatches>) => matches?.build((path, line, column, text) => `${path}:${line}:${column}:${text}`);

describe("matches made from a native literal scan", () => {
  test("stops at the limit: the hit past it says the answer is cut, and its file is not among the paths", () => {
    const reply = replyOf([{ length: 5, lines: [[1, 0, "ab"]] }, { length: 5, lines: [[2, 1, "xab"]] }]);
    const matches = nativeLiteralMatches(listed([5, 5]), [0, 1], reply, 1)!;
    expect(matches).toMatchObject({ count: 1, truncated: true, searchedFiles: 2, changed: [] });
    expect(matches.paths()).toEqual(["f0.py"]);
    expect(rows(matches)).toEqual(["f0.py:1:1:ab"]);
    // With room for both, neither is cut.
    const both = nativeLiteralMatches(listed([5, 5]), [0, 1], reply, 2)!;
    expect(both).toMatchObject({ count: 2, truncated: false });
    expect(both.paths()).toEqual(["f0.py", "f1.py"]);
    expect(rows(both)).toEqual(["f0.py:1:1:ab", "f1.py:2:2:xab"]);
  });

  test("cuts within a file, and ignores files after the limit, even those no thread read", () => {
    const reply = replyOf([{ length: 9, lines: [[1, 0, "ab"], [2, 0, "ab"], [3, 0, "ab"]] }, { length: -2 }]);
    const matches = nativeLiteralMatches(listed([9, 9]), [0, 1], reply, 2)!;
    expect(matches).toMatchObject({ count: 2, truncated: true, searchedFiles: 1 });
    expect(rows(matches)).toEqual(["f0.py:1:1:ab", "f0.py:2:1:ab"]);
  });

  test("is null when a file before the limit was read by no thread (the caller scans it otherwise)", () => {
    const reply = replyOf([{ length: 5, lines: [[1, 0, "ab"]] }, { length: -2 }, { length: 5, lines: [[1, 0, "ab"]] }]);
    expect(nativeLiteralMatches(listed([5, 5, 5]), [0, 1, 2], reply, 10)).toBeNull();
  });

  test("counts files read (not unreadable, not binary) as searched, and those read at another size as changed; maps paths through the indexes", () => {
    const reply = replyOf([{ length: -1 }, { length: 7, binary: true }, { length: 6, lines: [[4, 2, "  ab"]] }, { length: 3 }]);
    const files = listed([1, 7, 7, 5, 3]);
    const matches = nativeLiteralMatches(files, [1, 2, 3, 4], reply, 10)!;
    expect(matches).toMatchObject({ count: 1, truncated: false, searchedFiles: 2, changed: ["f3.py"] });
    expect(rows(matches)).toEqual(["f3.py:4:3:  ab"]);
  });

  test("gives a line beyond ASCII its column in characters, and a long line its text around the hit", () => {
    const long = `${"é".repeat(400)}ab${"x".repeat(400)}`;
    const reply = replyOf([{ length: 50, lines: [[1, Buffer.byteLength("é😀 "), "é😀 ab"], [2, 800, long]] }]);
    const [short, cut] = rows(nativeLiteralMatches(listed([50]), [0], reply, 10))!;
    // é is one UTF-16 unit, 😀 two: the hit is the fifth unit.
    expect(short).toBe("f0.py:1:5:é😀 ab");
    expect(cut).toBe(`f0.py:2:401:…${"é".repeat(100)}ab${"x".repeat(198)}…`);
  });
});
