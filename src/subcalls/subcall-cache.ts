import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { TokenUsage } from "../model/model-client.ts";

/** What the cache keeps for one sub-call. */
export interface CachedSubcall {
  readonly model: string;
  readonly text: string;
  /** The usage of the call that filled the entry (a cache hit itself uses nothing). */
  readonly usage: TokenUsage;
}

/** What a cache key is made of: the sub-model, the prompt and every option that changes the reply. */
export interface SubcallCacheKey {
  readonly model: string;
  readonly prompt: string;
  readonly options: { readonly maxTokens?: number; readonly temperature?: number };
}

/**
 * An on-disk cache of `llm_query` replies, one JSON file per key (a SHA-256 of the
 * model, prompt and options) in `directory`. For reproducible runs and cheaper
 * re-runs; off unless `runSession` gets `subcallCacheDir`. Unreadable or corrupt
 * entries are misses; write failures are ignored (the cache is an optimisation).
 */
export class SubcallCache {
  readonly directory: string;

  constructor(directory: string) {
    this.directory = directory;
  }

  /** The file name of a key. */
  static keyOf({ model, prompt, options }: SubcallCacheKey): string {
    const canonical = JSON.stringify({ model, prompt, maxTokens: options.maxTokens ?? null, temperature: options.temperature ?? null });
    return createHash("sha256").update(canonical).digest("hex");
  }

  /** The cached reply, or undefined on a miss. */
  async get(key: SubcallCacheKey): Promise<CachedSubcall | undefined> {
    try {
      const entry = JSON.parse(await readFile(this.#path(key), "utf8")) as CachedSubcall & { prompt?: string };
      if (typeof entry.text !== "string" || entry.model !== key.model || entry.prompt !== key.prompt) return undefined;
      return { model: entry.model, text: entry.text, usage: entry.usage };
    } catch {
      return undefined;
    }
  }

  /** Stores a reply (atomically: written to a temporary file, then renamed). */
  async set(key: SubcallCacheKey, entry: CachedSubcall): Promise<void> {
    try {
      await mkdir(this.directory, { recursive: true });
      const path = this.#path(key);
      const temporary = `${path}.${randomBytes(4).toString("hex")}.tmp`;
      await writeFile(temporary, JSON.stringify({ ...entry, prompt: key.prompt, options: key.options }));
      await rename(temporary, path);
    } catch {
      // A cache that cannot be written only costs a re-run.
    }
  }

  #path(key: SubcallCacheKey): string {
    return join(this.directory, `${SubcallCache.keyOf(key)}.json`);
  }
}
