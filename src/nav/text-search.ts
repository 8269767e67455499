import { runsHere, searchHere } from "./first-search.ts";
import { scansNatively } from "./native-first-search.ts";
import { ScanStopped } from "./time-guard.ts";
import { fitsHere } from "./search-placement.ts";
import { lineRegex, type LineRegex } from "./line-regex.ts";
import { mergeMatches, type TextSearchResult, type WorkerMatches } from "./search-matches.ts";
import { learnFlags, partitionFiles, type FileShare } from "./search-shares.ts";
import { CANCELLED, MAX_SEARCH_WORKERS, SearchTimeout, SearchWorkers, Stalled, type Reply } from "./search-workers.ts";
import type { SearchFile } from "./text-scan.ts";
import { deliverFilters, type FilterSink } from "./file-filters.ts";
// The pure redaction function alone, so nav never loads the sandbox (and isolated-vm).
import { redactHostPaths } from "../../sandbox/redact.ts";

export type { SearchFile, TextSearchResult };

/** One search, as the workers run it. */
export interface TextSearchRequest {
  /** The repository root (a real absolute path) the files' paths are relative to. */
  readonly root: string;
  readonly query: string;
  readonly regex: boolean;
  readonly caseSensitive: boolean;
  readonly glob?: string;
  readonly limit: number;
  readonly maxFileBytes: number;
}

/** A search as one worker receives it (see search-worker.ts). */
export interface WorkerSearchRequest extends TextSearchRequest {
  readonly id: number;
  /** The worker's share of the files (with each file's index in the whole list), sent when it changes. */
  readonly share?: FileShare;
  /** The line-oriented pattern of a regex search. */
  readonly pattern?: LineRegex;
  /** Run the pattern on V8's linear-time engine (after the backtracking engine stalled). */
  readonly linear: boolean;
  /** When present, test these names instead of file contents and answer with the indexes that match. */
  readonly names?: readonly string[];
  /** Read every file of the share into memory and send no lines (after a first search that ran on the main thread). */
  readonly preload?: boolean;
  /** One flag per file of the share: make a trigram filter of the file when reading it from disk (see file-filters.ts). */
  readonly learn?: Uint8Array;
}

/**
 * Searches file contents on worker threads (one per core, at most
 * {@link MAX_SEARCH_WORKERS}), each with its share of the files, read on
 * first use and kept in memory between searches. Regular expressions are
 * made line-oriented (see `lineRegex`) and run on V8's backtracking engine;
 * a worker that stalls on one file is terminated and the search runs again
 * on V8's linear-time engine. Each search has a time limit; when it runs out
 * the workers are terminated and the search answers with an error value.
 * A first search in a small repository runs on the calling thread instead
 * (see `searchHere`), and the workers read the files after it.
 */
export class TextSearchEngine {
  readonly #timeoutMs: number;
  readonly #workers: SearchWorkers;
  #shares: { files: readonly SearchFile[]; shares: FileShare[] } | undefined;
  // True once the workers hold the files' texts (a search or a preload ran on them).
  #workersLoaded = false;
  #lastRanOn: "calling thread" | "workers" | undefined;
  // Counts calls of close(), so a background load queued before one does not start workers after it.
  #generation = 0;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #cancels = new Set<() => void>();
  // Calls of foreground() under way, and the background loads that join the queue when the last of them ends.
  #foreground = 0;
  #waitingLoads: (() => void)[] = [];

  /** @param workerCount - search workers to use (default: one per core, at most {@link MAX_SEARCH_WORKERS}) */
  constructor(timeoutMs: number, workerCount?: number) {
    this.#timeoutMs = timeoutMs;
    this.#workers = new SearchWorkers(workerCount);
  }

  /**
   * Runs one search over `files` (searches run one at a time, in call order).
   * A search before the workers hold any text runs on this thread (see
   * `searchHere`; on the native addon's threads when it takes the search, see
   * `scansNatively`) when the files it must read are few enough or the addon takes it,
   * and its pattern, if any, finishes there within its time; the workers then read their files in the background. `mayHold`, when given,
   * is false for files that cannot hold the literal (the index's trigram
   * filters): until the workers hold every text, a search reads only the others
   * (and the workers then read every file in the background, unless `loadAfter` is false:
   * the caller then asks for it with {@link loadInBackground}). `learn`, when given,
   * gets a trigram filter of each file read from disk that it wants.
   */
  search(files: readonly SearchFile[], request: TextSearchRequest, mayHold?: (file: SearchFile) => boolean, learn?: FilterSink, { loadAfter = true }: { readonly loadAfter?: boolean } = {}): Promise<TextSearchResult> {
    return this.#enqueue(async () => {
      const generation = this.#generation;
      // One deadline for the search, wherever it runs: a pattern given up on this thread has what is left of it on the workers.
      const deadline = Date.now() + this.#timeoutMs;
      let result = this.#searchesHere(files, request, mayHold, learn) ? await this.#searchHere(files, request, deadline, mayHold, learn) : undefined;
      this.#lastRanOn = result === undefined ? "workers" : "calling thread";
      if (result === undefined) {
        if (!mayHold || this.#workersLoaded) return this.#runSearch(files, request, true, learn, deadline);
        // On workers that hold no text yet: only the files that may hold the literal, and every file after.
        result = await this.#runSearch(files.filter(mayHold), request, false, learn, deadline);
      }
      if (!("error" in result) && loadAfter) this.#loadLater(files, request, learn, generation);
      return result;
    });
  }

  /**
   * Has the workers read every file of `files` in the background (after a search made with
   * `loadAfter: false` whose answer stands), unless they hold the texts already.
   */
  loadInBackground(files: readonly SearchFile[], request: TextSearchRequest, learn?: FilterSink): void {
    this.#loadLater(files, request, learn, this.#generation);
  }

  /**
   * Runs `work`, which a caller waits for, before any background load: a load asked for meanwhile (after a
   * search whose answer stands) joins the search queue when `work`, and every other call of this under way,
   * has ended (before anything the caller does next), so that reading every file does not take the cores
   * from what the caller waits for (a nav tool parsing the files whose matches it names, say). The searches
   * `work` makes run as usual, never behind that load.
   */
  async foreground<T>(work: () => Promise<T>): Promise<T> {
    this.#foreground++;
    try {
      return await work();
    } finally {
      if (--this.#foreground === 0) for (const load of this.#waitingLoads.splice(0)) load();
    }
  }

  // Every file is read, whatever the first search's glob; not if the engine was closed meanwhile. It joins the
  // queue now, or once foreground work has ended, and starts on a later turn of the event loop: handing the
  // workers their shares takes tens of milliseconds on this thread, which the caller would otherwise wait
  // through before it gets its answer.
  #loadLater(files: readonly SearchFile[], request: TextSearchRequest, learn: FilterSink | undefined, generation: number): void {
    const load = () =>
      void this.#enqueue(async () => {
        await new Promise((resolve) => setImmediate(resolve));
        if (generation === this.#generation) await this.#preload(files, { ...request, glob: undefined }, learn);
      }, true);
    if (this.#foreground > 0) this.#waitingLoads.push(load);
    else load();
  }

  /**
   * Tests names (symbol names) against the query in a worker, with the same
   * pattern rules and time limits; answers with the indexes of up to `limit + 1` matching names.
   */
  searchNames(names: readonly string[], request: TextSearchRequest): Promise<{ readonly hits: number[] } | { readonly error: string }> {
    return this.#enqueue(() =>
      this.#withPattern(request, undefined, async (pattern, linear, deadline) => {
        const [reply] = await this.#workers.send(1, () => ({ ...request, pattern, linear, names }), deadline, pattern !== undefined && !linear);
        return reply.error !== undefined ? { error: reply.error } : { hits: reply.hits ?? [] };
      }),
    );
  }

  /** Where the last search of file contents ran (for diagnostics and tests): on this thread (or the native addon's threads for it), or on the workers; `undefined` before the first. */
  get lastRanOn(): "calling thread" | "workers" | undefined {
    return this.#lastRanOn;
  }

  /** True once the workers hold the files' texts: a search then reads nothing it has not read before. */
  get holdsTexts(): boolean {
    return this.#workersLoaded;
  }

  /** True when a search of these files would run on the workers (not on this thread). */
  runsOnWorkers(files: readonly SearchFile[], request: HereTest, mayHold?: (file: SearchFile) => boolean, learn?: FilterSink): boolean {
    return !this.#searchesHere(files, request, mayHold, learn);
  }

  /**
   * Starts the workers ahead of a search that will run on them, so they load while
   * the caller walks the repository (a search before they hold any text may run
   * on this thread instead, and starts them only if it does not).
   */
  warm(request: Pick<TextSearchRequest, "regex" | "query" | "caseSensitive">): void {
    if (!runsHere(request) || this.#workersLoaded) this.#workers.ensure(this.#workers.count);
  }

  /** Stops the workers; a later search starts new ones. */
  async close(): Promise<void> {
    this.#generation++;
    for (const cancel of this.#cancels) cancel();
    this.#cancels.clear();
    this.#workers.cancelAll();
    await this.#terminate();
  }

  // Queues `run` behind the searches before it. A caller waiting on it keeps the process alive
  // until it starts (its own timer does then): it may wait behind a background load, which does not.
  #enqueue<T>(run: () => Promise<T>, background = false): Promise<T> {
    const keepAlive = background ? undefined : setInterval(() => undefined, 2 ** 30);
    const result = this.#queue.then(() => {
      clearInterval(keepAlive);
      return run();
    });
    // The queue waits for the result without keeping it: a search's matches would stay alive until the next one.
    this.#queue = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  // A search before the workers hold any text: a literal the native addon's threads scan (see `scansNatively`), or
  // one with few enough bytes to read on this thread (see `fitsHere`).
  #searchesHere(files: readonly SearchFile[], request: HereTest, mayHold?: (file: SearchFile) => boolean, learn?: FilterSink): boolean {
    if (this.#workersLoaded) return false;
    return scansNatively(files, request, mayHold, learn) || (runsHere(request) && fitsHere(files, request.maxFileBytes, mayHold));
  }

  // The search on this thread, or undefined when it goes to the workers (see `searchHere`): its pattern ran out of time there (before the deadline), its lines were too many to keep, or the addon could not scan it.
  async #searchHere(files: readonly SearchFile[], request: TextSearchRequest, deadline: number, mayHold?: (file: SearchFile) => boolean, learn?: FilterSink): Promise<TextSearchResult | undefined> {
    let cancelled = false;
    const cancel = () => void (cancelled = true);
    this.#cancels.add(cancel);
    try {
      const stop = () => (cancelled ? new ScanStopped("cancelled") : Date.now() > deadline ? new ScanStopped("timeout") : undefined);
      const reply = await searchHere(files, request, stop, deadline, mayHold, learn);
      // Given up on this thread: the workers run it, unless that used up the search's time.
      if (reply === undefined && Date.now() >= deadline) return { error: this.#timeoutMessage(request) };
      return reply;
    } catch (error) {
      if (error instanceof ScanStopped) return { error: error.reason === "timeout" ? this.#timeoutMessage(request) : `search failed: ${CANCELLED}` };
      return { error: `search failed: ${redactHostPaths(String((error as Error)?.message ?? error))}` };
    } finally {
      this.#cancels.delete(cancel);
    }
  }

  // Has the workers read their shares of `files` (running the search again, its lines unsent,
  // which also readies the code that scans), so the next search finds the texts in memory.
  async #preload(files: readonly SearchFile[], request: TextSearchRequest, learn?: FilterSink): Promise<void> {
    if (this.#workersLoaded) return;
    try {
      const replies = await this.#sendShares(files, { ...request, linear: false, preload: true }, Date.now() + this.#timeoutMs, false, true, learn);
      this.#workersLoaded = replies.every((reply) => reply.error === undefined);
      if (learn) deliverFilters(files, replies, learn);
    } catch {
      // A preload that fails or is cancelled leaves the workers to read on the next search.
      await this.#terminate();
    }
  }

  // `whole`: the files are every file, so the workers hold all their texts after it.
  #runSearch(files: readonly SearchFile[], request: TextSearchRequest, whole = true, learn?: FilterSink, deadline?: number): Promise<TextSearchResult> {
    return this.#withPattern(request, deadline, async (pattern, linear, deadline) => {
      const replies = await this.#sendShares(files, { ...request, pattern, linear }, deadline, pattern !== undefined && !linear, false, learn);
      const failed = replies.find((reply) => reply.error !== undefined);
      if (failed) return { error: failed.error! };
      if (learn) deliverFilters(files, replies, learn);
      if (whole) this.#workersLoaded = true;
      return mergeMatches(files, replies as (Reply & WorkerMatches)[], request.limit);
    });
  }

  // Sends each worker the request with its share of the files (the share itself only when it changed),
  // and which of its files to make filters of for `learn`.
  #sendShares(files: readonly SearchFile[], request: object, deadline: number, watchStalls: boolean, background = false, learn?: FilterSink): Promise<Reply[]> {
    // Files the workers read from disk: all of them before they hold the texts, and a new list's new or changed ones after.
    const newList = this.#shares?.files !== files;
    const shares = this.#partition(files);
    const flags = learn && (!this.#workersLoaded || newList) ? learnFlags(files, shares, learn) : [];
    return this.#workers.send(
      shares.length,
      (slot, index) => {
        const share = shares[index]!;
        const sendShare = slot.share !== share;
        slot.share = share;
        return { ...request, ...(sendShare ? { share } : {}), ...(flags[index] ? { learn: flags[index] } : {}) };
      },
      deadline,
      watchStalls,
      background,
    );
  }

  // Runs `attempt` on the backtracking engine, then, if a worker stalled, on the linear-time one.
  // `deadline`: the search's, when it was set before (a search given up on this thread); else from now.
  async #withPattern<T>(request: TextSearchRequest, deadline: number | undefined, attempt: (pattern: LineRegex | undefined, linear: boolean, deadline: number) => Promise<T>): Promise<T | { error: string }> {
    let pattern: LineRegex | undefined;
    if (request.regex) {
      const compiled = lineRegex(request.query, request.caseSensitive);
      if ("error" in compiled) return compiled;
      pattern = compiled;
    }
    const until = deadline ?? Date.now() + this.#timeoutMs;
    try {
      try {
        return await attempt(pattern, pattern?.nestedRepetition ?? false, until);
      } catch (error) {
        if (!(error instanceof Stalled)) throw error;
        await this.#terminate();
        return await attempt(pattern, true, until);
      }
    } catch (error) {
      await this.#terminate();
      if (error instanceof SearchTimeout) return { error: this.#timeoutMessage(request) };
      // A worker's fault (a file it could not read, say) names host paths; the model gets them redacted.
      return { error: `search failed: ${redactHostPaths(String((error as Error)?.message ?? error))}` };
    }
  }

  #timeoutMessage(request: TextSearchRequest): string {
    return `search stopped after ${this.#timeoutMs} ms without finishing; ${request.regex ? "simplify the pattern or narrow it with { glob }" : "narrow it with { glob } or a longer query"}`;
  }

  async #terminate(): Promise<void> {
    this.#workersLoaded = false;
    await this.#workers.terminate();
  }

  // One share of the files per worker (see search-shares.ts), kept while the list is the same.
  #partition(files: readonly SearchFile[]): FileShare[] {
    if (this.#shares?.files !== files) this.#shares = { files, shares: partitionFiles(files, this.#workers.count) };
    return this.#shares.shares;
  }
}

// What decides whether a search may run on this thread.
type HereTest = Pick<TextSearchRequest, "regex" | "query" | "caseSensitive" | "maxFileBytes">;

