/**
 * After a first search that ran on the calling thread, the search workers read every file in the background, so
 * that later searches find the texts in memory. That reading waits for the foreground work a caller waits for (a nav
 * tool naming the symbols around its matches, say), and the searches of that work never wait behind it.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, expect, test } from "vitest";
import { TextSearchEngine, type TextSearchRequest } from "../../src/nav/text-search.ts";
import type { SearchFile } from "../../src/nav/text-scan.ts";

let root: string;
let files: SearchFile[];
let request: TextSearchRequest;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-background-load-"));
  files = [];
  for (let index = 0; index < 30; index++) {
    const text = index % 3 === 0 ? `x needle ${index}\n` : `x ${index}\n`;
    await fs.writeFile(path.join(root, `f${index}.txt`), text);
    files.push({ path: `f${index}.txt`, size: Buffer.byteLength(text), mtimeMs: (await fs.stat(path.join(root, `f${index}.txt`))).mtimeMs });
  }
  request = { root, query: "needle", regex: false, caseSensitive: true, limit: 100, maxFileBytes: 1 << 20 };
});

afterAll(async () => {
  if (root) await fs.rm(root, { recursive: true, force: true });
});

// Runs `test` with a new engine, and closes it whatever happens.
async function withEngine(test: (engine: TextSearchEngine) => Promise<void>): Promise<void> {
  const engine = new TextSearchEngine(10_000);
  try {
    await test(engine);
  } finally {
    await engine.close();
  }
}

// Waits until the workers hold every text, for at most 10 s; `never` says what failed otherwise.
async function loaded(engine: TextSearchEngine, never: string): Promise<void> {
  for (let waited = 0; !engine.holdsTexts; waited += 50) {
    expect(waited, never).toBeLessThan(10_000);
    await sleep(50);
  }
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`${what} did not settle within ${ms} ms`)))]);
}

test("the background load waits for foreground work, whose own searches do not wait for it", () =>
  withEngine(async (engine) => {
    await engine.foreground(async () => {
      const first = await engine.search(files, request);
      expect(first).toMatchObject({ count: 10 });
      expect(engine.lastRanOn).toBe("calling thread");
      // Long enough for the workers to start and read these few files many times over, were the load not waiting.
      for (let waited = 0; waited < 1500; waited += 50) {
        await sleep(50);
        expect(engine.holdsTexts).toBe(false);
      }
      // A search of the foreground work itself runs now, not behind the load that waits for the work to end.
      const again = await within(engine.search(files, request), 5000, "a search made while a background load waits");
      expect(again).toMatchObject({ count: 10 });
    });
    // Then the load runs.
    await loaded(engine, "the workers never read the files after the foreground work ended");
    expect(await engine.search(files, request)).toMatchObject({ count: 10 });
    expect(engine.lastRanOn).toBe("workers");
  }));

test("a load asked for during foreground work joins the queue as it ends, before the caller's next search", () =>
  withEngine(async (engine) => {
    await engine.foreground(async () => {
      await engine.search(files, request);
      // Past the turn of the event loop on which a load would otherwise start.
      await new Promise((resolve) => setImmediate(resolve));
      await sleep(20);
    });
    // Issued at once: it runs after the load, on the workers that now hold every text.
    expect(await engine.search(files, request)).toMatchObject({ count: 10 });
    expect(engine.lastRanOn).toBe("workers");
    expect(engine.holdsTexts).toBe(true);
  }));

test("nested and overlapping foreground work: the load starts after the last of it", () =>
  withEngine(async (engine) => {
    let releaseOther!: () => void;
    const other = engine.foreground(() => new Promise<void>((resolve) => (releaseOther = resolve)));
    await engine.foreground(async () => {
      await engine.foreground(() => engine.search(files, request));
      await sleep(300);
    });
    // One call still under way: nothing read yet.
    await sleep(700);
    expect(engine.holdsTexts).toBe(false);
    releaseOther();
    await other;
    await loaded(engine, "the workers never read the files after the last foreground work ended");
  }));

test("foreground work that fails still lets the load start, and answers with its failure", () =>
  withEngine(async (engine) => {
    await expect(
      engine.foreground(async () => {
        await engine.search(files, request);
        throw new Error("the tool failed");
      }),
    ).rejects.toThrow("the tool failed");
    await loaded(engine, "the workers never read the files after the failed work");
  }));

test("an engine closed while a load waits for foreground work starts no workers after", () =>
  withEngine(async (engine) => {
    let searched!: () => void;
    const searchedNow = new Promise<void>((resolve) => (searched = resolve));
    let finish!: () => void;
    const work = engine.foreground(async () => {
      await engine.search(files, request);
      searched();
      await new Promise<void>((resolve) => (finish = resolve));
    });
    // The search failing would fail the work: either settles first.
    await within(Promise.race([searchedNow, work]), 10_000, "the search inside the foreground work");
    await engine.close();
    finish();
    await work;
    await sleep(1000);
    expect(engine.holdsTexts).toBe(false);
  }));
