/**
 * The matches made from a native scan's answer (native-matches.ts), on answers written out by hand:
 * where the search is cut, which files count as searched or changed, the columns of lines beyond
 * ASCII, and a pattern run over the lines together. (native-first-search.test.ts compares the whole
 * path with the JavaScript scan.)
 */
import { describe, expect, test } from "vitest";
import { NATIVE_NAME, NATIVE_STAT_STRIDE, type NativeScanReply } from "../../src/nav/native-addon.ts";
import { lineRegex, type LineRegex } from "../../src/nav/line-regex.ts";
import { nativeMatches } from "../../src/nav/native-matches.ts";
import { compileLinePattern, type SearchFile } from "../../src/nav/text-scan.ts";

// What the scan saw of a file: its bytes read (-1 unreadable, -2 not read), whether it looks binary, and its lines hit as
// (line number, the hit's byte offset in the line, the line's text, and the symbol the scan named around it: null for
// none, left out when it named none).
interface Seen {
  readonly length: number;
  readonly binary?: boolean;
  readonly lines?: readonly (readonly [number, number, string, (string | null)?])[];
  /** Read through a symlink, to a file of this size, mtime and ctime (milliseconds). */
  readonly viaLink?: readonly [number, number, number];
}

// The answer the addon gives for these files, in its layout (native/literal_scan.cc).
function replyOf(seen: readonly Seen[]): NativeScanReply {
  const files: number[] = [];
  const hits: number[] = [];
  const chunks: Buffer[] = [];
  const nameChunks: Buffer[] = [];
  let offset = 0;
  let nameOffset = 0;
  const ascii = (text: string) => /^[\x00-\x7f]*$/.test(text);
  const stats = seen.some((file) => file.viaLink) ? new Float64Array(seen.length * NATIVE_STAT_STRIDE) : undefined;
  seen.forEach((file, index) => {
    files.push(file.length, file.binary ? 1 : 0, file.lines?.length ?? 0, file.viaLink ? 1 : 0);
    if (file.viaLink && stats) {
      const [size, mtimeMs, ctimeMs] = file.viaLink;
      // Seconds and nanoseconds, as stat() gives them; a regular file.
      stats.set([1, size, Math.floor(mtimeMs / 1e3), (mtimeMs % 1e3) * 1e6, Math.floor(ctimeMs / 1e3), (ctimeMs % 1e3) * 1e6, 1], index * NATIVE_STAT_STRIDE);
    }
    for (const [line, hit, text, name] of file.lines ?? []) {
      const bytes = Buffer.from(text, "utf8");
      hits.push(index, line, hit, offset, bytes.length, ascii(text) ? 1 : 0);
      if (name === undefined || name === null) hits.push(0, 0, name === null ? NATIVE_NAME.noSymbol : NATIVE_NAME.unnamed);
      else {
        const nameBytes = Buffer.from(name, "utf8");
        hits.push(nameOffset, nameBytes.length, ascii(name) ? NATIVE_NAME.ascii : NATIVE_NAME.utf8);
        nameChunks.push(nameBytes);
        nameOffset += nameBytes.length;
      }
      chunks.push(bytes, Buffer.from("\n"));
      offset += bytes.length + 1;
    }
  });
  const bytes = Buffer.concat(chunks);
  const names = Buffer.concat(nameChunks);
  const own = (buffer: Buffer) => buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.length) as ArrayBuffer;
  return { files: Int32Array.from(files), hits: Int32Array.from(hits), bytes: own(bytes), names: own(names), ...(stats ? { stats } : {}), stopped: 0 };
}

const listed = (sizes: readonly number[]): SearchFile[] => sizes.map((size, index) => ({ path: `f${index}.py`, size, mtimeMs: 0 }));
const rows = (matches: ReturnType<typeof nativeMatches>) => matches?.build((path, line, column, text) => `${path}:${line}:${column}:${text}`);

describe("matches made from a native literal scan", () => {
  test("stops at the limit: the hit past it says the answer is cut, and its file is not among the paths", () => {
    const reply = replyOf([{ length: 5, lines: [[1, 0, "ab"]] }, { length: 5, lines: [[2, 1, "xab"]] }]);
    const matches = nativeMatches(listed([5, 5]), [0, 1], reply, 1)!;
    expect(matches).toMatchObject({ count: 1, truncated: true, searchedFiles: 2, changed: [] });
    expect(matches.files().map((file) => file.path)).toEqual(["f0.py"]);
    expect(rows(matches)).toEqual(["f0.py:1:1:ab"]);
    // With room for both, neither is cut.
    const both = nativeMatches(listed([5, 5]), [0, 1], reply, 2)!;
    expect(both).toMatchObject({ count: 2, truncated: false });
    expect(both.files().map((file) => file.path)).toEqual(["f0.py", "f1.py"]);
    expect(rows(both)).toEqual(["f0.py:1:1:ab", "f1.py:2:2:xab"]);
  });

  test("names each match's symbol as the scan named it, and leaves the others, and a file read at another size, to the caller", () => {
    const reply = replyOf([
      { length: 9, lines: [[1, 0, "ab", "Shape.area"], [2, 0, "ab", "Shape.area"], [3, 0, "ab", null]] },
      { length: 5, lines: [[1, 0, "ab", "Größe.été"]] },
      { length: 5, lines: [[1, 0, "ab"]] },
      // Read at 6 bytes where the list says 5: its spans are of the version before.
      { length: 6, lines: [[1, 0, "ab", "stale"]] },
    ]);
    const matches = nativeMatches(listed([9, 5, 5, 5]), [0, 1, 2, 3], reply, 10)!;
    const symbols = matches.build((path, _line, _column, _text, symbol) => [path, symbol]);
    expect(symbols).toEqual([["f0.py", "Shape.area"], ["f0.py", "Shape.area"], ["f0.py", null], ["f1.py", "Größe.été"], ["f2.py", undefined], ["f3.py", undefined]]);
    expect(matches.unnamedFiles!().map((file) => file.path)).toEqual(["f2.py", "f3.py"]);
    expect(matches.files().map((file) => file.path)).toEqual(["f0.py", "f1.py", "f2.py", "f3.py"]);
  });

  test("tells an empty name from the name after it, which starts where it does", () => {
    const reply = replyOf([{ length: 9, lines: [[1, 0, "ab", ""], [2, 0, "ab", "foo"], [3, 0, "ab", ""]] }, { length: 5, lines: [[1, 0, "ab", "foo"]] }]);
    const symbols = nativeMatches(listed([9, 5]), [0, 1], reply, 10)!.build((_path, _line, _column, _text, symbol) => symbol);
    expect(symbols).toEqual(["", "foo", "", "foo"]);
  });

  test("cuts within a file, and ignores files after the limit, even those no thread read", () => {
    const reply = replyOf([{ length: 9, lines: [[1, 0, "ab"], [2, 0, "ab"], [3, 0, "ab"]] }, { length: -2 }]);
    const matches = nativeMatches(listed([9, 9]), [0, 1], reply, 2)!;
    expect(matches).toMatchObject({ count: 2, truncated: true, searchedFiles: 1 });
    expect(rows(matches)).toEqual(["f0.py:1:1:ab", "f0.py:2:1:ab"]);
  });

  test("keeps a file read through a symlink only when it led to the file listed; reports the others changed, and keeps nothing of them", () => {
    const file = (path: string, ctimeMs?: number): SearchFile => ({ path, size: 5, mtimeMs: 1_700_000_000_123, ...(ctimeMs === undefined ? {} : { ctimeMs }) });
    const files = [file("same.py", 1_700_000_000_456), file("other-mtime.py", 1_700_000_000_456), file("other-ctime.py", 1_700_000_000_456), file("no-ctime.py"), file("regular.py")];
    const reply = replyOf([
      { length: 5, lines: [[1, 0, "ab"]], viaLink: [5, 1_700_000_000_123, 1_700_000_000_456] },
      { length: 5, lines: [[1, 0, "SECRET"]], viaLink: [5, 1_700_000_000_999, 1_700_000_000_456] },
      { length: 5, lines: [[1, 0, "SECRET"]], viaLink: [5, 1_700_000_000_123, 1_700_000_000_999] },
      { length: 5, lines: [[1, 0, "ab"]], viaLink: [5, 1_700_000_000_123, 1_700_000_000_999] },
      { length: 5, lines: [[1, 0, "ab"]] },
    ]);
    const matches = nativeMatches(files, [0, 1, 2, 3, 4], reply, 10)!;
    expect(matches).toMatchObject({ count: 3, searchedFiles: 3, changed: ["other-mtime.py", "other-ctime.py"] });
    expect(matches.build((path, _line, _column, text) => `${path}:${text}`)).toEqual(["same.py:ab", "no-ctime.py:ab", "regular.py:ab"]);
    // Without the stats the link cannot be judged: changed.
    const { stats: _, ...unstated } = replyOf([{ length: 5, lines: [[1, 0, "SECRET"]], viaLink: [5, 1_700_000_000_123, 1_700_000_000_456] }]);
    expect(nativeMatches([files[0]!], [0], unstated as NativeScanReply, 10)).toMatchObject({ count: 0, changed: ["same.py"] });
  });

  test("is null when a file before the limit was read by no thread (the caller scans it otherwise)", () => {
    const reply = replyOf([{ length: 5, lines: [[1, 0, "ab"]] }, { length: -2 }, { length: 5, lines: [[1, 0, "ab"]] }]);
    expect(nativeMatches(listed([5, 5, 5]), [0, 1, 2], reply, 10)).toBeNull();
  });

  test("counts files read (not unreadable, not binary) as searched, and those read at another size as changed; maps paths through the indexes", () => {
    const reply = replyOf([{ length: -1 }, { length: 7, binary: true }, { length: 6, lines: [[4, 2, "  ab"]] }, { length: 3 }]);
    const files = listed([1, 7, 7, 5, 3]);
    const matches = nativeMatches(files, [1, 2, 3, 4], reply, 10)!;
    expect(matches).toMatchObject({ count: 1, truncated: false, searchedFiles: 2, changed: ["f3.py"] });
    expect(rows(matches)).toEqual(["f3.py:4:3:  ab"]);
  });

  test("gives a line beyond ASCII its column in characters, and a long line its text around the hit", () => {
    const long = `${"é".repeat(400)}ab${"x".repeat(400)}`;
    const reply = replyOf([{ length: 50, lines: [[1, Buffer.byteLength("é😀 "), "é😀 ab"], [2, 800, long]] }]);
    const [short, cut] = rows(nativeMatches(listed([50]), [0], reply, 10))!;
    // é is one UTF-16 unit, 😀 two: the hit is the fifth unit.
    expect(short).toBe("f0.py:1:5:é😀 ab");
    expect(cut).toBe(`f0.py:2:401:…${"é".repeat(100)}ab${"x".repeat(198)}…`);
  });
});

describe("matches of a pattern made from a native scan", () => {
  // Lines that hold a pattern's literal, some it matches and some not, two beyond ASCII; the first
  // ASCII line of the second file is followed by one beyond ASCII that Latin-1 would read as matching.
  const reply = replyOf([
    { length: 90, lines: [[1, 0, "import os"], [2, 0, "import osmosis"], [5, 4, "    import sys, re"], [6, 0, "import é, sys"]] },
    { length: 40, lines: [[3, 0, "import numpy"], [4, 5, "# é import os"], [9, 0, "import os"]] },
    { length: 20, lines: [[2, 0, "import sys"]] },
  ]);
  const files = listed([90, 40, 20]);
  // As a search compiles its pattern: line-oriented (nothing in it can match a line feed), global.
  const linePattern = (source: string) => compileLinePattern(lineRegex(source, true) as LineRegex, false, true);
  const search = (source: string, limit = 50) => nativeMatches(files, [0, 1, 2], reply, limit, linePattern(source))!;

  test("keeps the lines the pattern matches, at its first match, as matching each line alone does", () => {
    const matches = search(String.raw`import\s+(os|sys)\b`);
    expect(matches).toMatchObject({ count: 5, truncated: false, searchedFiles: 3 });
    expect(matches.files().map((file) => file.path)).toEqual(["f0.py", "f1.py", "f2.py"]);
    expect(rows(matches)).toEqual(["f0.py:1:1:import os", "f0.py:5:5:    import sys, re", "f1.py:4:5:# é import os", "f1.py:9:1:import os", "f2.py:2:1:import sys"]);
  });

  test("matches a line beyond ASCII as its text, not as its bytes read as Latin-1", () => {
    // "é" is the bytes C3 A9, which Latin-1 reads as "Ã©".
    expect(rows(search("import \u00c3"))).toEqual([]);
    expect(rows(search("import é"))).toEqual(["f0.py:6:1:import é, sys"]);
    expect(rows(search("é import"))).toEqual(["f1.py:4:3:# é import os"]);
  });

  test("matches at a line's end, and never across the line feed between lines", () => {
    expect(rows(search("os$"))).toEqual(["f0.py:1:8:import os", "f1.py:4:12:# é import os", "f1.py:9:8:import os"]);
    expect(rows(search("^import"))).toHaveLength(6);
    // An empty match at a line's end is that line's, not the next one's.
    expect(rows(search("$"))!.map((row) => row.split(":").slice(0, 3).join(":"))).toEqual([
      "f0.py:1:10",
      "f0.py:2:15",
      "f0.py:5:19",
      "f0.py:6:14",
      "f1.py:3:13",
      "f1.py:4:14",
      "f1.py:9:10",
      "f2.py:2:11",
    ]);
    expect(rows(search(String.raw`sys.*import`))).toEqual([]);
  });

  test("never matches across the line feed between two lines, as the pattern would on the lines joined", () => {
    const joined = replyOf([{ length: 20, lines: [[1, 2, "x sys"], [2, 0, "import y"]] }]);
    const pattern = String.raw`sys\s*import`;
    // The same pattern as written, unrewritten, does match across them.
    expect(new RegExp(pattern).test("x sys\nimport y")).toBe(true);
    expect(rows(nativeMatches(listed([20]), [0], joined, 50, linePattern(pattern)))).toEqual([]);
    expect(rows(nativeMatches(listed([20]), [0], joined, 50, linePattern(String.raw`sys\s*$`)))).toEqual(["f0.py:1:3:x sys"]);
  });

  test("stops at the limit: the match past it says the answer is cut, and its file is not among the paths", () => {
    const matches = search(String.raw`import\s+(os|sys)\b`, 2);
    expect(matches).toMatchObject({ count: 2, truncated: true });
    expect(matches.files().map((file) => file.path)).toEqual(["f0.py"]);
    expect(rows(matches)).toEqual(["f0.py:1:1:import os", "f0.py:5:5:    import sys, re"]);
  });
});
