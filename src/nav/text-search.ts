import { Worker } from "node:worker_threads";

/** A file given to the search worker. */
export interface SearchFile {
  readonly path: string;
  readonly absolute: string;
  readonly size: number;
  readonly mtimeMs: number;
}

/** One search, as the worker runs it. */
export interface TextSearchRequest {
  readonly query: string;
  readonly regex: boolean;
  readonly caseSensitive: boolean;
  readonly glob?: string;
  readonly limit: number;
  readonly maxFileBytes: number;
}

/** A line that matched: path, 1-based line and column, and the line's text. */
export interface TextMatch {
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly text: string;
}

/** What a search returns: matches, or an error value (bad pattern, time limit). */
export type TextSearchResult =
  | { readonly matches: TextMatch[]; readonly truncated: boolean; readonly searchedFiles: number }
  | { readonly error: string };

interface Pending {
  readonly resolve: (result: TextSearchResult) => void;
  readonly timer: NodeJS.Timeout;
}

/**
 * Searches file contents in a worker thread that keeps file texts in memory
 * between searches. Each search has a time limit; when it runs out the worker
 * is terminated (which stops even a catastrophically backtracking regular
 * expression) and the search answers with an error value.
 */
export class TextSearchEngine {
  readonly #timeoutMs: number;
  #worker: Worker | undefined;
  #filesSent: readonly SearchFile[] | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** Runs one search over `files` (searches run one at a time, in call order). */
  search(files: readonly SearchFile[], request: TextSearchRequest): Promise<TextSearchResult> {
    const run = this.#queue.then(() => this.#run(files, request));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Tests names (symbol names) against the query in the worker, under the same
   * time limit; answers with the indexes of up to `limit + 1` matching names.
   */
  searchNames(names: readonly string[], request: TextSearchRequest): Promise<{ readonly hits: number[] } | { readonly error: string }> {
    const run = this.#queue.then(() => this.#run(this.#filesSent ?? [], { ...request, names }));
    this.#queue = run.catch(() => undefined);
    return run as Promise<{ readonly hits: number[] } | { readonly error: string }>;
  }

  /** Stops the worker; a later search starts a new one. */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    this.#filesSent = undefined;
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.resolve({ error: "the search was cancelled because the navigation tools were closed" });
      this.#pending.delete(id);
    }
    if (worker) await worker.terminate();
  }

  #run(files: readonly SearchFile[], request: TextSearchRequest & { readonly names?: readonly string[] }): Promise<TextSearchResult> {
    const worker = this.#ensureWorker();
    const id = this.#nextId++;
    const sendFiles = this.#filesSent !== files;
    this.#filesSent = files;
    return new Promise<TextSearchResult>((resolve) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        this.#worker = undefined;
        this.#filesSent = undefined;
        void worker.terminate();
        resolve({
          error: `search stopped after ${this.#timeoutMs} ms without finishing; ${request.regex ? "the pattern may backtrack catastrophically — simplify it (avoid nested quantifiers such as (a+)+) or search for a literal" : "narrow it with { glob } or a longer query"}`,
        });
      }, this.#timeoutMs);
      this.#pending.set(id, { resolve, timer });
      worker.postMessage({ id, ...(sendFiles ? { files } : {}), ...request });
    });
  }

  #ensureWorker(): Worker {
    if (this.#worker) return this.#worker;
    const extension = import.meta.url.endsWith(".ts") ? "ts" : "js";
    const worker = new Worker(new URL(`./search-worker.${extension}`, import.meta.url));
    worker.on("message", (message: { id: number } & TextSearchResult) => {
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      clearTimeout(pending.timer);
      const { id: _id, ...result } = message;
      pending.resolve(result as TextSearchResult);
    });
    worker.on("error", (error) => {
      if (this.#worker === worker) {
        this.#worker = undefined;
        this.#filesSent = undefined;
      }
      for (const [id, pending] of this.#pending) {
        clearTimeout(pending.timer);
        pending.resolve({ error: `search failed: ${error.message}` });
        this.#pending.delete(id);
      }
    });
    // Unref'd after the listeners are added (adding a 'message' listener refs a
    // worker again), so an idle worker never keeps the process alive; a pending
    // search keeps it alive through its timer.
    worker.unref();
    this.#worker = worker;
    return worker;
  }
}
