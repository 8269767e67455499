/**
 * In a small repository whose disk cache's list a first search starts on, the native addon's scan
 * states every file as it goes, and the walk that confirms the list comes after it and replays its kept
 * listing with those stats (`walksAfterScan`): the walk states no file the scan did, and the search
 * answers what the JavaScript path answers.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, test, vi } from "vitest";
import { createNavTools, type NavSearchResult } from "../../src/index.ts";
import { indexCacheFile } from "../../src/nav/index-cache.ts";
import { nativeAddon } from "../../src/nav/native-addon.ts";
import { tempDir } from "../support/temp-dir.ts";

const FILES = 60;

afterEach(() => {
  vi.restoreAllMocks();
  delete process.env.RLMKIT_NATIVE_ADDON;
});

describe.skipIf(!nativeAddon())("a first search's walk after the scan", () => {
  test("states only the folders and ignore files itself, and finds what the JavaScript path finds", async () => {
    const root = await fs.realpath(tempDir("rlmkit-walk-after-"));
    await fs.writeFile(path.join(root, ".gitignore"), "*.log\n");
    for (let index = 0; index < FILES; index++) {
      const folder = path.join(root, `pkg${index % 3}`);
      await fs.mkdir(folder, { recursive: true });
      await fs.writeFile(path.join(folder, `m${index}.py`), `class C${index}:\n    def method(self):\n        return ${index}\n`);
    }
    await fs.writeFile(path.join(root, "pkg0", "skip.log"), "def not_listed(self):\n");
    // A walk is kept as a listing only once its folders have not changed for 2 s.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const cacheDir = tempDir("rlmkit-walk-after-cache-");
    const cold = await createNavTools(root, { cacheDir });
    await cold.info();
    await cold.close();
    await expect(fs.access(indexCacheFile(cacheDir, root).replace(/\.json$/, ".list"))).resolves.toBeUndefined();

    const stat = vi.spyOn(nativeAddon()!, "stat");
    const scan = vi.spyOn(nativeAddon()!, "scan");
    const nav = await createNavTools(root, { cacheDir });
    const native = (await nav.search("def ", { limit: 1_000 })) as NavSearchResult;
    await nav.close();
    // The scan was asked to state every file of the list, and the walk stated the rest: a folder, a .gitignore or a git path each.
    expect(scan.mock.calls[0]?.[10]).toBeInstanceOf(Uint8Array);
    const stated = stat.mock.calls.reduce((sum, call) => sum + call[0].length, 0);
    expect(stated).toBeGreaterThan(0);
    expect(stated).toBeLessThan(FILES);
    vi.restoreAllMocks();

    process.env.RLMKIT_NATIVE_ADDON = "0";
    const plain = await createNavTools(root, { cacheDir: false });
    const expected = (await plain.search("def ", { limit: 1_000 })) as NavSearchResult;
    await plain.close();
    expect(native.matches).toHaveLength(FILES);
    expect(native).toEqual(expected);
  }, 30_000);
});
