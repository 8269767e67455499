/**
 * The native scan's lines and hits against a plain reading of the same bytes: for files of few
 * distinct bytes (so that the two bytes its finder looks for are often in place where the needle is
 * not) and of every length around its blocks of sixteen and thirty-two places, each line holding
 * the needle (and every `also` needle, and one of each `anyOf` group) is a hit, at the needle's first
 * place in it, in either case when ignoring it; a needle that ends a file is found at every alignment,
 * and nothing past a file's end (the bytes a longer file left in the reused buffer) is ever a hit.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { NATIVE_HIT_STRIDE, nativeAddon } from "../../src/nav/native-addon.ts";
import { tempDir } from "../support/temp-dir.ts";

// Pieces of the files: letters in both cases, a space, a line feed, é in UTF-8, and a lone byte of it.
const PIECES = [[0x61], [0x62], [0x41], [0x42], [0x20], [0x0a], [0xc3, 0xa9], [0xc3]];
// Pieces of the needles, which are text: no line feed, no lone byte.
const NEEDLE_PIECES = PIECES.slice(0, 5).concat([PIECES[6]!]);

// A file: pieces at random, or one run of pieces repeated (long lines of near matches).
const fileBytes = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 120 }).map((pieces) => pieces.flat()),
  fc.array(fc.constantFrom(...NEEDLE_PIECES), { minLength: 1, maxLength: 8 }).chain((run) => fc.nat({ max: 40 }).map((times) => Array.from({ length: times }, () => run.flat()).flat())),
);
const needle = fc.array(fc.constantFrom(...NEEDLE_PIECES), { minLength: 1, maxLength: 12 }).map((pieces) => pieces.flat());

const lower = (byte: number) => (byte >= 0x41 && byte <= 0x5a ? byte + 32 : byte);

// Where `needle` first starts in `line` at or after `from`, or -1 (bytes compared, letters folded when ignoring case).
function indexIn(line: number[], wanted: number[], ignoreCase: boolean): number {
  const same = (a: number, b: number) => (ignoreCase ? lower(a) === lower(b) : a === b);
  for (let at = 0; at + wanted.length <= line.length; at++) if (wanted.every((byte, offset) => same(line[at + offset]!, byte))) return at;
  return -1;
}

// What the scan should answer: per line holding the needle (and the others), its file, number, and the needle's place.
function expected(files: number[][], wanted: number[], ignoreCase: boolean, also: number[][], anyOf: number[][][]): number[][] {
  const hits: number[][] = [];
  files.forEach((bytes, file) => {
    const lines: number[][] = [[]];
    for (const byte of bytes) (byte === 0x0a ? lines.push([]) : lines.at(-1)!.push(byte));
    if (bytes.at(-1) === 0x0a) lines.pop();
    lines.forEach((line, number) => {
      const place = indexIn(line, wanted, ignoreCase);
      if (place < 0 || !also.every((other) => indexIn(line, other, ignoreCase) >= 0)) return;
      if (!anyOf.every((group) => group.some((other) => indexIn(line, other, ignoreCase) >= 0))) return;
      hits.push([file, number + 1, place]);
    });
  });
  return hits;
}

describe.skipIf(!nativeAddon())("the native scan's finder", () => {
  test("finds every line that holds the needle, at its first place, as reading the bytes one by one does", async () => {
    const dir = tempDir("rlmkit-native-scan-");
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fileBytes, fc.boolean()), { minLength: 1, maxLength: 4 }),
        needle,
        fc.boolean(),
        fc.array(needle, { maxLength: 2 }),
        fc.array(fc.array(needle, { minLength: 1, maxLength: 2 }), { maxLength: 1 }),
        async (pieces, wanted, ignoreCase, also, anyOf) => {
          // Some files end with the needle, at the last place it can start.
          const files = pieces.map(([bytes, endsWithNeedle]) => (endsWithNeedle ? [...bytes, ...wanted] : bytes));
          // The scan refuses a needle beyond ASCII when ignoring case.
          const ascii = (bytes: number[]) => bytes.every((byte) => byte < 0x80);
          if (ignoreCase && ![wanted, ...also, ...anyOf.flat()].every(ascii)) return;
          const paths = files.map((bytes, index) => {
            const file = path.join(dir, `${round}-${index}.txt`);
            writeFileSync(file, Buffer.from(bytes));
            return file;
          });
          round++;
          const text = (bytes: number[]) => Buffer.from(bytes).toString("utf8");
          const reply = await nativeAddon()!.scan(paths, text(wanted), ignoreCase, 1e9, 2, Date.now() + 10_000, 0, 1 << 20, also.map(text), undefined, undefined, undefined, undefined, anyOf.map((group) => group.map(text))).promise;
          const hits: number[][] = [];
          for (let at = 0; at < reply.hits.length; at += NATIVE_HIT_STRIDE) hits.push([reply.hits[at]!, reply.hits[at + 1]!, reply.hits[at + 2]!]);
          expect(hits).toEqual(expected(files, wanted, ignoreCase, also, anyOf));
        },
      ),
      { numRuns: 1_000 },
    );
  });

  test("finds a needle that ends the file, whatever its place against the finder's blocks", async () => {
    const dir = tempDir("rlmkit-native-scan-end-");
    const paths: string[] = [];
    const wanted: number[][] = [];
    // Every length of filler before it, for needles of one to six bytes (rarest bytes first and last).
    for (const needle of ["q", "qz", "def ", "self.", "x.yq_z", "zab"]) {
      for (let filler = 0; filler < 70; filler++) {
        const file = path.join(dir, `${paths.length}.txt`);
        writeFileSync(file, `${"ab ".repeat(filler).slice(0, filler)}${needle}`);
        paths.push(file);
        wanted.push([paths.length - 1, 1, filler]);
      }
      const reply = await nativeAddon()!.scan(paths.splice(0), needle, false, 1e9, 1, Date.now() + 10_000, 0, 1 << 20).promise;
      const hits: number[][] = [];
      for (let at = 0; at < reply.hits.length; at += NATIVE_HIT_STRIDE) hits.push([reply.hits[at]! + wanted[0]![0]!, reply.hits[at + 1]!, reply.hits[at + 2]!]);
      expect(hits, needle).toEqual(wanted.splice(0));
    }
  });

  test("finds a needle after its two rarest bytes were in place at many places before it (where it stops comparing them, it goes on from the same place)", async () => {
    const dir = tempDir("rlmkit-native-scan-periodic-");
    const needle = `${"Q".repeat(9)}Z`;
    const lengths = Array.from({ length: 80 }, (_, at) => 9 + at);
    const paths = lengths.map((length) => {
      const file = path.join(dir, `${length}.txt`);
      writeFileSync(file, `${"Q".repeat(length)}Z`);
      return file;
    });
    const reply = await nativeAddon()!.scan(paths, needle, false, 1e9, 1, Date.now() + 10_000, 0, 1 << 20).promise;
    const hits: number[][] = [];
    for (let at = 0; at < reply.hits.length; at += NATIVE_HIT_STRIDE) hits.push([reply.hits[at]!, reply.hits[at + 2]!]);
    expect(hits).toEqual(lengths.map((length, file) => [file, length - 9]));
  });

  test("numbers the lines after runs of line feeds of every length, in sixteen-byte lines", async () => {
    const dir = tempDir("rlmkit-native-scan-lines-");
    // The counter adds up each byte lane's line feeds for at most 255 blocks of sixteen bytes at a time.
    const counts = [0, 1, 15, 16, 17, 254, 255, 256, 257, 510, 511, 512, 4_100];
    const paths = counts.map((count) => {
      const file = path.join(dir, `${count}.txt`);
      writeFileSync(file, `${"abcdefghijklmno\n".repeat(count)}x needle\n`);
      return file;
    });
    const reply = await nativeAddon()!.scan(paths, "needle", false, 1e9, 1, Date.now() + 10_000, 0, 1 << 20).promise;
    const lines: number[] = [];
    for (let at = 0; at < reply.hits.length; at += NATIVE_HIT_STRIDE) lines.push(reply.hits[at + 1]!);
    expect(lines).toEqual(counts.map((count) => count + 1));
  });

  test("answers every line of files with more than a mebibyte of hits between smaller ones, read by one thread", async () => {
    const dir = tempDir("rlmkit-native-scan-large-");
    // A file with that many hits takes its thread's buffers; the files after it start from empty ones.
    const sizes = [60_000, 3, 60_000, 0, 2, 70_000, 1];
    const paths = sizes.map((count, index) => {
      const file = path.join(dir, `${index}.txt`);
      writeFileSync(file, Array.from({ length: count }, (_, line) => `${index} hit ${line}`).join("\n"));
      return file;
    });
    const reply = await nativeAddon()!.scan(paths, "hit", false, 1e9, 1, Date.now() + 10_000, 0, 1 << 26).promise;
    expect(reply.stopped).toBe(0);
    const bytes = Buffer.from(reply.bytes);
    const got: string[] = [];
    for (let at = 0; at < reply.hits.length; at += NATIVE_HIT_STRIDE) got.push(bytes.toString("latin1", reply.hits[at + 3]!, reply.hits[at + 3]! + reply.hits[at + 4]!));
    expect(got).toEqual(sizes.flatMap((count, index) => Array.from({ length: count }, (_, line) => `${index} hit ${line}`)));
  });

  test("finds nothing past a file's end: each file is the one before without its last byte, read into the same buffer", async () => {
    const dir = tempDir("rlmkit-native-scan-cut-");
    for (const needle of ["qz", "def ", "self.", "x.yq_z"]) {
      for (let filler = 0; filler < 40; filler++) {
        // One thread takes the files in order: the bytes past each file's end are the last bytes of the one before it.
        const whole = `${"ab ".repeat(filler).slice(0, filler)}${needle}`;
        const paths = Array.from({ length: needle.length + 1 }, (_, cut) => {
          const file = path.join(dir, `${needle.length}-${filler}-${cut}.txt`);
          writeFileSync(file, whole.slice(0, whole.length - cut));
          return file;
        });
        const reply = await nativeAddon()!.scan(paths, needle, false, 1e9, 1, Date.now() + 10_000, 0, 1 << 20).promise;
        const hits: number[][] = [];
        for (let at = 0; at < reply.hits.length; at += NATIVE_HIT_STRIDE) hits.push([reply.hits[at]!, reply.hits[at + 2]!]);
        expect(hits, `${needle} after ${filler}`).toEqual([[0, filler]]);
      }
    }
  });
});
