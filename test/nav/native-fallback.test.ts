/**
 * A search the native addon was to take but did not scan (its threads could not start: every file
 * comes back unread) is still answered, and in full: on the calling thread when it reads little, on
 * the workers when it reads more than the calling thread reads itself.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import type { NativeAddon } from "../../src/nav/native-addon.ts";
import { TextSearchEngine, type TextSearchRequest } from "../../src/nav/text-search.ts";
import type { SearchFile } from "../../src/nav/text-scan.ts";

// An addon whose threads took no file: every file is answered as not read (-2).
vi.mock("../../src/nav/native-addon.ts", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../src/nav/native-addon.ts")>();
  const addon: NativeAddon = {
    scan: (paths) => ({
      promise: Promise.resolve({ files: new Int32Array(paths.length * 2).fill(-2), hits: new Int32Array(0), bytes: new ArrayBuffer(0), names: new ArrayBuffer(0), stopped: 0 }),
      cancel: () => undefined,
    }),
    stat: (paths) => new Float64Array(paths.length * original.NATIVE_STAT_STRIDE),
    version: original.ADDON_VERSION,
  };
  return { ...original, nativeAddon: () => addon };
});

let root: string;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-native-fallback-"));
  for (let index = 0; index < 80; index++) await fs.writeFile(path.join(root, `f${index}.txt`), index % 4 === 0 ? `x needle ${index}\n` : `x ${index}\n`);
});

afterAll(async () => {
  if (root) await fs.rm(root, { recursive: true, force: true });
});

test.for<[string, number, "calling thread" | "workers"]>([
  ["few bytes to read: the calling thread scans them", 100, "calling thread"],
  // Listed at 1 MiB each (80 MiB: more than the calling thread reads itself); read as they are, the files are small.
  ["more than the calling thread reads itself: the workers", 1 << 20, "workers"],
])("%s", async ([, listedSize, where]) => {
  const files: SearchFile[] = Array.from({ length: 80 }, (_, index) => ({ path: `f${index}.txt`, size: listedSize, mtimeMs: 0 }));
  const request: TextSearchRequest = { root, query: "needle", regex: false, caseSensitive: true, limit: 100, maxFileBytes: 1 << 20 };
  const engine = new TextSearchEngine(10_000);
  try {
    const result = await engine.search(files, request);
    expect(result).not.toHaveProperty("error");
    expect(engine.lastRanOn).toBe(where);
    expect((result as { count: number }).count).toBe(20);
  } finally {
    await engine.close();
  }
});
