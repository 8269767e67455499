/**
 * The native addon itself (native/, built by `npm install`): its scan stops and cancels, refuses
 * bad arguments, finds a literal that ignores case in time linear in the text, and lets a worker
 * thread that ran a scan end at once, without crashing the process; its `stat`s are those of
 * fs.statSync, bit for bit.
 */
import { spawnSync } from "node:child_process";
import { lstatSync, statSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { entryStatsOf, lstatEntries, statFiles } from "../../src/nav/file-stats.ts";
import { NATIVE_FILE_STRIDE, NATIVE_HIT_STRIDE, nativeAddon } from "../../src/nav/native-addon.ts";
import { walkRepository } from "../../src/nav/repo-walk.ts";
import { encodeSpans } from "../../src/nav/symbol-piece.ts";
import { literalTrigrams, mayHoldAt, trigramFilter } from "../../src/nav/trigram-filter.ts";
import { PROJECT_ROOT } from "./fixture-repo.ts";

let base: string;

beforeAll(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-native-addon-")));
});

afterAll(async () => {
  if (base) await fs.rm(base, { recursive: true, force: true });
});

afterEach(() => {
  delete process.env.RLMKIT_NATIVE_ADDON;
});

describe.skipIf(!nativeAddon())("the native addon's scan", () => {
  test("stops taking files once cancelled, and says so", async () => {
    const addon = nativeAddon()!;
    const file = path.join(base, "big.txt");
    await fs.writeFile(file, "x".repeat(1 << 20));
    const { promise, cancel } = addon.scan(Array.from({ length: 20_000 }, () => file), "absent", false, 10, 2, Date.now() + 60_000, 8000, 1e9);
    cancel();
    const reply = await promise;
    expect(reply.stopped).toBe(2);
    // Each thread reads at most the file it had taken: the others are not read (-2).
    expect(reply.files.filter((value, index) => index % NATIVE_FILE_STRIDE === 0 && value === -2).length).toBeGreaterThan(19_000);
  });

  test.for([
    // Looking for the next `a` over the rest of the text at each step: 12 ms a text, 3 s in all.
    ["a text where only one case of its first letter occurs", "A", "ab"],
    // Comparing the needle at each place its first letter occurs: 1,000 bytes a place, 10 s in all.
    ["a run of the needle's first letter", "a", `${"a".repeat(1000)}b`],
  ])("finds a literal that ignores case in %s in linear time: 256 texts of 64 KiB within a deadline of 1.5 s", async ([, letter, needle]) => {
    // A linear scan takes well under 100 ms; the deadline is checked between files.
    const file = path.join(base, `runs-${letter}.txt`);
    await fs.writeFile(file, letter!.repeat(64 * 1024));
    const reply = await nativeAddon()!.scan(Array.from({ length: 256 }, () => file), needle!, true, 10, 2, Date.now() + 1500, 8000, 1e9).promise;
    expect(reply.stopped).toBe(0);
    expect(reply.hits).toHaveLength(0);
    expect([...reply.files].filter((value, index) => index % NATIVE_FILE_STRIDE === 0 && value !== 64 * 1024)).toEqual([]);
  });

  test.for([false, true])("finds a literal in a periodic text whose two rarest bytes are in place at every other place in linear time (ignoring case: %s): 64 texts of 256 KiB within a deadline of 1.5 s", async (ignoreCase) => {
    // Comparing the needle whole at each such place: 20,000 bytes at every other place, seconds in all.
    const file = path.join(base, "periodic.txt");
    await fs.writeFile(file, "Qe".repeat(128 * 1024));
    const reply = await nativeAddon()!.scan(Array.from({ length: 64 }, () => file), `${"Qe".repeat(10_000)}Z`, ignoreCase, 10, 2, Date.now() + 1500, 8000, 1e9).promise;
    expect(reply.stopped).toBe(0);
    expect(reply.hits).toHaveLength(0);
    expect([...reply.files].filter((value, index) => index % NATIVE_FILE_STRIDE === 0 && value !== 256 * 1024)).toEqual([]);
  });

  test("lets a worker thread that is scanning be terminated at once, and the process go on", async () => {
    const file = path.join(base, "worker-big.txt");
    await fs.writeFile(file, "x".repeat(1 << 20));
    const addon = fileURLToPath(new URL("../../src/nav/native-addon.ts", import.meta.url));
    // The worker scans 20,000 files of 1 MiB (seconds of work); it is terminated 30 ms after it starts.
    const script = `
      import { Worker } from "node:worker_threads";
      const worker = new Worker(\`
        const { parentPort } = await import("node:worker_threads");
        const { nativeAddon } = await import(\${JSON.stringify(${JSON.stringify(addon)})});
        nativeAddon().scan(Array.from({ length: 20000 }, () => \${JSON.stringify(${JSON.stringify(file)})}), "absent", false, 10, 2, Date.now() + 60000, 8000, 1e9);
        parentPort.postMessage("scanning");
      \`, { eval: true });
      await new Promise((resolve) => worker.once("message", resolve));
      await new Promise((resolve) => setTimeout(resolve, 30));
      const started = performance.now();
      await worker.terminate();
      console.log(performance.now() - started < 2000 ? "terminated" : "terminated late");
    `;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
    expect(run.stderr).toBe("");
    expect(run.signal).toBeNull();
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe("terminated");
  });

  test.for([
    ["no arguments", () => (nativeAddon()!.scan as unknown as () => unknown)()],
    ["paths that are not strings", () => nativeAddon()!.scan([1 as unknown as string], "x", false, 1, 1, 0, 0, 0)],
    ["an empty needle", () => nativeAddon()!.scan([], "", false, 1, 1, 0, 0, 0)],
    ["a needle with a line feed, which no line holds", () => nativeAddon()!.scan([], "a\nb", false, 1, 1, 0, 0, 0)],
    ["a needle beyond ASCII that ignores case", () => nativeAddon()!.scan([], "é", true, 1, 1, 0, 0, 0)],
    ["stat of paths that are not strings", () => nativeAddon()!.stat([{}] as unknown as string[], 1)],
  ])("refuses %s with a TypeError", ([, call]) => {
    expect(call as () => unknown).toThrow(TypeError);
  });
});

describe.skipIf(!nativeAddon())("the native addon's answer", () => {
  test("gives each file its bytes read, whether it looks binary, and its count of hits, which are in file order", async () => {
    const files = ["two.txt", "none.txt", "binary.bin", "three.txt"].map((name) => path.join(base, name));
    await fs.writeFile(files[0]!, "a x\nb\nx x\n");
    await fs.writeFile(files[1]!, "nothing\n");
    await fs.writeFile(files[2]!, Buffer.from("x\0x\n"));
    await fs.writeFile(files[3]!, "x\nx\nx");
    const reply = await nativeAddon()!.scan([...files, path.join(base, "missing.txt")], "x", false, 1e9, 2, Date.now() + 10_000, 8000, 1 << 20).promise;
    const perFile = (offset: number) => [...reply.files].filter((_, index) => index % NATIVE_FILE_STRIDE === offset);
    expect(perFile(0)).toEqual([10, 8, 4, 5, -1]);
    expect(perFile(1)).toEqual([0, 0, 1, 0, 0]);
    expect(perFile(2)).toEqual([2, 0, 0, 3, 0]);
    const hitFiles: number[] = [];
    for (let at = 0; at < reply.hits.length; at += NATIVE_HIT_STRIDE) hitFiles.push(reply.hits[at]!);
    expect(hitFiles).toEqual([0, 0, 3, 3, 3]);
    // The lines, each followed by a line feed, the last line of a file without one too; each hit's line where its offset and length say.
    expect(Buffer.from(reply.bytes).toString("latin1")).toBe("a x\nx x\nx\nx\nx\n");
    const lines: string[] = [];
    for (let at = 0; at < reply.hits.length; at += NATIVE_HIT_STRIDE) lines.push(Buffer.from(reply.bytes, reply.hits[at + 3]!, reply.hits[at + 4]!).toString("latin1"));
    expect(lines).toEqual(["a x", "x x", "x", "x", "x"]);
  });
});

describe.skipIf(!nativeAddon())("the native addon's scan with other needles", () => {
  test("keeps only the lines that hold every needle, in either case when ignoring it", async () => {
    const file = path.join(base, "also.txt");
    await fs.writeFile(file, "class A:\nclass BError:\nraise Error\nclass CERROR(x): # error\n");
    const lines = async (ignoreCase: boolean, also?: string[]) => {
      const reply = await nativeAddon()!.scan([file], "class", ignoreCase, 1e9, 1, Date.now() + 10_000, 8000, 1 << 20, also).promise;
      const numbers: number[] = [];
      for (let at = 0; at < reply.hits.length; at += NATIVE_HIT_STRIDE) numbers.push(reply.hits[at + 1]!);
      return numbers;
    };
    expect(await lines(false)).toEqual([1, 2, 4]);
    expect(await lines(false, ["Error"])).toEqual([2]);
    expect(await lines(true, ["error"])).toEqual([2, 4]);
    expect(await lines(false, ["Error", "nowhere"])).toEqual([]);
    // Needles no line can hold, or that cannot be folded, are refused.
    for (const [also, ignoreCase] of [[[""], false], [["a\nb"], false], [["é"], true], [[1], false]] as [unknown[], boolean][]) {
      expect(() => nativeAddon()!.scan([file], "class", ignoreCase, 1, 1, Date.now() + 10_000, 8000, 1 << 20, also as string[]), JSON.stringify(also)).toThrow(TypeError);
    }
  });

  test("keeps only the lines that hold one needle of each group of anyOf, in either case when ignoring it", async () => {
    const file = path.join(base, "any-of.txt");
    await fs.writeFile(file, "import os\nimport re\nimport sys, OS\nfrom x import Y\nimport SYS # y\n");
    const lines = async (ignoreCase: boolean, anyOf: unknown[][], also: string[] = []) => {
      const reply = await nativeAddon()!.scan([file], "import", ignoreCase, 1e9, 1, Date.now() + 10_000, 8000, 1 << 20, also, undefined, undefined, undefined, undefined, anyOf as string[][]).promise;
      const numbers: number[] = [];
      for (let at = 0; at < reply.hits.length; at += NATIVE_HIT_STRIDE) numbers.push(reply.hits[at + 1]!);
      return numbers;
    };
    expect(await lines(false, [])).toEqual([1, 2, 3, 4, 5]);
    expect(await lines(false, [["os", "sys"]])).toEqual([1, 3]);
    expect(await lines(true, [["os", "sys"]])).toEqual([1, 3, 5]);
    // Every group, and `also` with them.
    expect(await lines(true, [["os", "sys"], ["y"]])).toEqual([3, 5]);
    expect(await lines(false, [["os", "sys"]], ["OS"])).toEqual([3]);
    // Groups no line can satisfy, or needles that cannot be folded, are refused.
    for (const [anyOf, ignoreCase] of [[[[]], false], [[[""]], false], [[["a\nb"]], false], [[["é"]], true], [["os"], false], [[[1]], false]] as [unknown[][], boolean][]) {
      expect(() => nativeAddon()!.scan([file], "import", ignoreCase, 1, 1, Date.now() + 10_000, 8000, 1 << 20, [], undefined, undefined, undefined, undefined, anyOf as string[][]), JSON.stringify(anyOf)).toThrow(TypeError);
    }
  });
});

describe.skipIf(!nativeAddon())("the native addon's stat", () => {
  test("gives the size, mtime, ctime, device and inode number fs.statSync gives, bit for bit, and nothing for a path it cannot stat", async () => {
    const root = path.join(base, "stat");
    await fs.mkdir(path.join(root, "dir"), { recursive: true });
    await fs.writeFile(path.join(root, "a.txt"), "hello\n");
    await fs.writeFile(path.join(root, "b.bin"), Buffer.alloc(70_000));
    await fs.utimes(path.join(root, "b.bin"), 1_700_000_000.123456, 1_600_000_000.987654);
    await fs.symlink(path.join(root, "a.txt"), path.join(root, "link"));
    const paths = ["a.txt", "b.bin", "link", "dir", "missing"].map((name) => path.join(root, name));
    // Past the count from which it uses several threads, too.
    const many = [...paths, ...Array.from({ length: 300 }, (_, index) => paths[index % paths.length]!)];
    const stats = statFiles(many);
    many.forEach((file, index) => {
      let expected: { size: number; mtimeMs: number; ctimeMs: number; dev: number; ino: number } | undefined;
      try {
        const stat = statSync(file);
        expected = { size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, dev: stat.dev, ino: stat.ino };
      } catch {
        expected = undefined;
      }
      expect(stats[index]).toEqual(expected);
    });
    expect(stats[4]).toBeUndefined();
    process.env.RLMKIT_NATIVE_ADDON = "0";
    expect(statFiles(many)).toEqual(stats);
  });

  test("lstats paths as fs.lstatSync does, with each entry's kind, with and without it", async () => {
    const root = path.join(base, "lstat");
    await fs.mkdir(path.join(root, "dir"), { recursive: true });
    await fs.writeFile(path.join(root, "a.txt"), "hello\n");
    await fs.symlink(path.join(root, "a.txt"), path.join(root, "link"));
    await fs.symlink(path.join(root, "dir"), path.join(root, "dir-link"));
    await fs.symlink(path.join(root, "gone"), path.join(root, "dangling"));
    expect(spawnSync("mkfifo", [path.join(root, "fifo")]).status).toBe(0);
    const names = ["a.txt", "dir", "link", "dir-link", "dangling", "missing", "fifo", "a.txt/not-a-folder"];
    const many = Array.from({ length: 300 }, (_, index) => path.join(root, names[index % names.length]!));
    const stats = lstatEntries(many);
    many.forEach((file, index) => {
      let stat: ReturnType<typeof lstatSync> | undefined;
      try {
        stat = lstatSync(file);
      } catch {
        stat = undefined;
      }
      const kind = stat?.isFile() ? "file" : stat?.isDirectory() ? "directory" : stat?.isSymbolicLink() ? "symlink" : "other";
      expect(stats[index]).toEqual(stat && { kind, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, dev: stat.dev, ino: stat.ino });
    });
    expect(stats.slice(0, 8).map((stat) => stat?.kind)).toEqual(["file", "directory", "symlink", "symlink", "symlink", undefined, "other", undefined]);
    process.env.RLMKIT_NATIVE_ADDON = "0";
    expect(lstatEntries(many)).toEqual(stats);
  });

  test("leaves a walk's list as it is without it: the same files, sizes and times", () => {
    const walked = walkRepository(PROJECT_ROOT);
    expect(walked.files.length).toBeGreaterThan(100);
    process.env.RLMKIT_NATIVE_ADDON = "0";
    expect(walkRepository(PROJECT_ROOT)).toEqual(walked);
  });
});

describe.skipIf(!nativeAddon())("the native addon's names of the symbols around each hit", () => {
  // A spans file as the disk cache writes it: a first line, then each file's spans on a line of their own.
  async function spansFile(pieces: readonly Uint8Array[]): Promise<{ fd: number; at: number[]; length: number[]; close: () => Promise<void> }> {
    const at: number[] = [];
    const chunks: Uint8Array[] = [Buffer.from("write-id\n")];
    let offset = chunks[0]!.length;
    for (const piece of pieces) {
      at.push(offset);
      chunks.push(piece, Buffer.from("\n"));
      offset += piece.length + 1;
    }
    const file = path.join(base, `spans-${at.length}-${offset}.bin`);
    await fs.writeFile(file, Buffer.concat(chunks));
    const handle = await fs.open(file, "r");
    return { fd: handle.fd, at, length: pieces.map((piece) => piece.length), close: () => handle.close() };
  }

  // The name the scan gave each hit (null: none; undefined: not named).
  async function names(text: string, pieces: readonly Uint8Array[], place?: (at: number[], length: number[]) => void): Promise<(string | null | undefined)[]> {
    const file = path.join(base, "named.txt");
    await fs.writeFile(file, text);
    const spans = await spansFile(pieces);
    try {
      place?.(spans.at, spans.length);
      const reply = await nativeAddon()!.scan([file], "x", false, 1e9, 1, Date.now() + 10_000, 8000, 1 << 20, [], { fd: spans.fd, at: Float64Array.from(spans.at), length: Int32Array.from(spans.length) }).promise;
      const named: (string | null | undefined)[] = [];
      for (let at = 0; at < reply.hits.length; at += NATIVE_HIT_STRIDE) {
        const kind = reply.hits[at + 8]!;
        named.push(kind === -2 ? undefined : kind === -1 ? null : Buffer.from(reply.names, reply.hits[at + 6]!, reply.hits[at + 7]!).toString("utf8"));
      }
      return named;
    } finally {
      await spans.close();
    }
  }

  const symbol = (name: string, startLine: number, endLine: number) => ({ name, startLine, endLine });
  const text = "x\nx\nx\nx\nx\nx\n";

  test("names the innermost symbol, the one that starts last where spans overlap, and none outside every symbol", async () => {
    const spans = encodeSpans([symbol("Outer", 2, 6), symbol("Outer.inner", 3, 4), symbol("Later", 4, 5)]);
    expect(await names(text, [spans])).toEqual([null, "Outer", "Outer.inner", "Later", "Later", "Outer"]);
  });

  test("reads symbols out of order as in order, the longest first among those that start on one line", async () => {
    const spans = encodeSpans([symbol("b", 3, 3), symbol("a", 1, 6), symbol("a.long", 3, 5)]);
    expect(await names(text, [spans])).toEqual(["a", "a", "b", "a.long", "a.long", "a"]);
  });

  test("names beyond ASCII and beyond the Basic Multilingual Plane, and one that starts with U+FEFF", async () => {
    const spans = encodeSpans([symbol("été", 1, 2), symbol("Ψ.𝑓", 3, 4), symbol("\uFEFFbom", 5, 6)]);
    expect(await names(text, [spans])).toEqual(["été", "été", "Ψ.𝑓", "Ψ.𝑓", "\uFEFFbom", "\uFEFFbom"]);
  });

  test("leaves the hits unnamed for spans that are not well formed, or a place that is not a line of the file", async () => {
    const good = encodeSpans([symbol("f", 1, 6)]);
    // A name end past the names, a count past the bytes, and names that are not UTF-8.
    const endPast = Buffer.from(good);
    endPast.writeInt32LE(99, 12);
    const countPast = Buffer.from(good);
    countPast.writeUInt32LE(1000, 0);
    const notUtf8 = Buffer.concat([encodeSpans([symbol("ab", 1, 6)]).subarray(0, 16), Buffer.from([0xc3, 0x28])]);
    for (const piece of [endPast, countPast, notUtf8]) expect(await names(text, [piece])).toEqual(Array(6).fill(undefined));
    expect(await names(text, [good], (at) => (at[0] = at[0]! + 1))).toEqual(Array(6).fill(undefined));
    expect(await names(text, [good], (_at, length) => (length[0] = length[0]! - 1))).toEqual(Array(6).fill(undefined));
    expect(await names(text, [good], (at) => (at[0] = -1))).toEqual(Array(6).fill(undefined));
    expect(await names(text, [good])).toEqual(Array(6).fill("f"));
  });

  test("refuses spans that do not give one place per path", async () => {
    const file = path.join(base, "named.txt");
    expect(() => nativeAddon()!.scan([file], "x", false, 1, 1, Date.now() + 10_000, 8000, 1 << 20, [], { fd: 0, at: new Float64Array(2), length: new Int32Array(1) })).toThrow(/one place per path/);
    expect(() => nativeAddon()!.scan([file], "x", false, 1, 1, Date.now() + 10_000, 8000, 1 << 20, [], { fd: -1, at: new Float64Array(1), length: new Int32Array(1) })).toThrow(/one place per path/);
  });
});

describe.skipIf(!nativeAddon())("the native addon's scan that states every path", () => {
  test("reads only the paths marked, states every one as lstatEntries does, and states the rest once it has enough hits", async () => {
    const folder = path.join(base, "stated");
    await fs.mkdir(path.join(folder, "dir"), { recursive: true });
    const names = ["a.txt", "b.txt", "c.txt", "d.txt"];
    for (const [index, name] of names.entries()) await fs.writeFile(path.join(folder, name), `x ${index}\n`.repeat(index + 1));
    await fs.symlink("a.txt", path.join(folder, "link.txt"));
    const paths = [...names, "link.txt", "dir", "missing.txt"].map((name) => path.join(folder, name));
    // a.txt and c.txt are read; wanting 2 hits, a.txt's one and c.txt's three are enough, so d.txt is only stated.
    const read = Uint8Array.from([1, 0, 1, 1, 0, 0, 0]);
    const reply = await nativeAddon()!.scan(paths, "x", false, 2, 1, Date.now() + 10_000, 8000, 1 << 20, [], undefined, read).promise;
    expect([...reply.files].filter((_, index) => index % NATIVE_FILE_STRIDE === 0)).toEqual([4, -3, 12, -2, -3, -3, -3]);
    const stated = entryStatsOf(reply.stats!);
    const expected = lstatEntries(paths);
    expect(stated).toEqual(expected);
    expect(stated.map((stat) => stat?.kind)).toEqual(["file", "file", "file", "file", "symlink", "directory", undefined]);
    // Without `read`, and no path read through a symlink, no stats.
    const noLinks = paths.filter((file) => !file.endsWith("link.txt"));
    const plain = await nativeAddon()!.scan(noLinks, "x", false, 2, 1, Date.now() + 10_000, 8000, 1 << 20).promise;
    expect(plain.stats).toBeUndefined();
    expect([...plain.files].filter((_, index) => index % NATIVE_FILE_STRIDE === 3)).toEqual(noLinks.map(() => 0));
    // A file read through a symlink is stated as the file read (its fstat), not as the link, and said to be read so:
    // with `read` or without it.
    for (const mask of [Uint8Array.of(1), undefined]) {
      const throughLink = await nativeAddon()!.scan([path.join(folder, "link.txt")], "x", false, 9, 1, Date.now() + 10_000, 8000, 1 << 20, [], undefined, mask).promise;
      expect([...throughLink.files]).toEqual([4, 0, 1, 1]);
      expect(entryStatsOf(throughLink.stats!)).toEqual(lstatEntries([path.join(folder, "a.txt")]));
    }
    expect(() => nativeAddon()!.scan(paths, "x", false, 2, 1, Date.now() + 10_000, 8000, 1 << 20, [], undefined, new Uint8Array(2))).toThrow(/one value per path/);
  });

  test("reads a path only when its trigram filter may hold every trigram, as mayHoldAt says; a filter it cannot read rules nothing out", async () => {
    const folder = path.join(base, "grams");
    await fs.mkdir(folder, { recursive: true });
    const texts = { "holds.txt": "a needle here\n", "lacks.txt": "zzzz\n", "unfiltered.txt": "zzzz needle\n", "odd.txt": "needle\n", "outside.txt": "needle\n" };
    const paths = Object.keys(texts).map((name) => path.join(folder, name));
    const filters = Object.values(texts).map((text) => trigramFilter(Buffer.from(text)));
    for (const [index, text] of Object.values(texts).entries()) await fs.writeFile(paths[index]!, text);
    // The filters one after the other, a byte apart, as the index's filter file holds them.
    const data = new Uint8Array(filters.reduce((bytes, filter) => bytes + filter.length + 1, 0));
    const at = new Float64Array(paths.length);
    const length = new Int32Array(paths.length);
    let offset = 0;
    for (const [index, filter] of filters.entries()) {
      data.set(filter, offset + 1);
      at[index] = offset + 1;
      length[index] = filter.length;
      offset += filter.length + 1;
    }
    at[2] = -1; // none: read
    length[3] = 100; // not a filter's length: read
    at[4] = data.length; // outside the bytes: read
    const trigrams = literalTrigrams("needle", true)!;
    expect(mayHoldAt(data, at[1]!, length[1]!, trigrams)).toBe(false);
    const files = async (read?: Uint8Array) => {
      const reply = await nativeAddon()!.scan(paths, "needle", false, 1e9, 2, Date.now() + 10_000, 8000, 1 << 20, [], undefined, read, undefined, { data, at, length, trigrams }).promise;
      return { lengths: [...reply.files].filter((_, index) => index % NATIVE_FILE_STRIDE === 0), stats: reply.stats && entryStatsOf(reply.stats) };
    };
    const sizes = Object.values(texts).map((text) => text.length);
    expect(await files()).toEqual({ lengths: [sizes[0], -3, ...sizes.slice(2)], stats: undefined });
    // With `read`, the path ruled out is stated as the others are.
    const masked = await files(new Uint8Array(paths.length).fill(1));
    expect(masked.lengths).toEqual([sizes[0], -3, ...sizes.slice(2)]);
    expect(masked.stats).toEqual(lstatEntries(paths));
    // The filter file open instead of its bytes: the scan reads it itself. One shorter than it says rules nothing out.
    const gramsFile = path.join(folder, "filters.grams");
    await fs.writeFile(gramsFile, data);
    const handle = await fs.open(gramsFile, "r");
    try {
      const fromFile = async (bytes: number) => {
        const reply = await nativeAddon()!.scan(paths, "needle", false, 1e9, 2, Date.now() + 10_000, 8000, 1 << 20, [], undefined, undefined, undefined, { fd: handle.fd, bytes, at, length, trigrams }).promise;
        return [...reply.files].filter((_, index) => index % NATIVE_FILE_STRIDE === 0);
      };
      expect(await fromFile(data.length)).toEqual([sizes[0], -3, ...sizes.slice(2)]);
      expect(await fromFile(data.length + 1)).toEqual(sizes);
      // A size no filter file has: every path is read.
      expect(await fromFile(2 ** 40)).toEqual(sizes);
    } finally {
      await handle.close();
    }
    expect(() => nativeAddon()!.scan(paths, "needle", false, 1, 1, Date.now() + 10_000, 8000, 1 << 20, [], undefined, undefined, undefined, { data, at: new Float64Array(1), length, trigrams })).toThrow(/one place per path/);
    expect(() => nativeAddon()!.scan(paths, "needle", false, 1, 1, Date.now() + 10_000, 8000, 1 << 20, [], undefined, undefined, undefined, { fd: -1, bytes: 1, at, length, trigrams })).toThrow(/one place per path/);
    expect(() => nativeAddon()!.scan(paths, "needle", false, 1, 1, Date.now() + 10_000, 8000, 1 << 20, [], undefined, undefined, undefined, { data, at, length, trigrams: [1] as unknown as Uint32Array })).toThrow(/one place per path/);
  });

  test("answers a scan that had its hits as done when a cancel ends its stating, the rest left unstated", async () => {
    const file = path.join(base, "one-hit.txt");
    await fs.writeFile(file, "x\n");
    // One file to read, then 400,000 paths to state (about 0.4 s). The cancel must come after the file was read
    // and before the stating ends: a later cancel is tried when one came too early on a busy machine.
    const paths = [file, ...Array.from({ length: 400_000 }, () => file)];
    const read = new Uint8Array(paths.length);
    read[0] = 1;
    const outcomes: string[] = [];
    for (const delayMs of [10, 30, 80, 200]) {
      const { promise, cancel } = nativeAddon()!.scan(paths, "x", false, 1, 1, Date.now() + 60_000, 8000, 1 << 20, [], undefined, read);
      setTimeout(cancel, delayMs);
      const reply = await promise;
      const stated = entryStatsOf(reply.stats!);
      const unstated = stated.filter((stat) => stat === undefined).length;
      outcomes.push(`${delayMs} ms: stopped ${reply.stopped}, ${unstated} unstated`);
      if (reply.stopped === 2) continue;
      expect(reply.stopped).toBe(0);
      expect(reply.hits.length / NATIVE_HIT_STRIDE).toBe(1);
      expect(stated[0]).toBeDefined();
      if (unstated > 0) return;
    }
    throw new Error(`no cancel fell during the stating: ${outcomes.join("; ")}`);
  });
});
