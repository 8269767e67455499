import fs from "node:fs/promises";
import { ReadRule } from "../access/read-rule.ts";
import type { DEFAULT_SECRET_FILES } from "../access/secret-files.ts";
import { RepositoryNotFoundError } from "../core/errors/repository-not-found-error.ts";
import { defineTool } from "../tools/define-tool.ts";
import type { JsonValue } from "../tools/json-schema.ts";
import type { Tool } from "../tools/tool.ts";
import { defaultIndexCacheDir } from "./index-cache.ts";
import type { NavContext } from "./nav-context.ts";
import { navInfo } from "./nav-info.ts";
import { navLs } from "./nav-ls.ts";
import { navOutline } from "./nav-outline.ts";
import { navRead } from "./nav-read.ts";
import { navRefs } from "./nav-refs.ts";
import type { NavError, NavInfo, NavListing, NavOutline, NavReadOptions, NavReadResult, NavRefsOptions, NavSearchOptions, NavSearchResult } from "./nav-results.ts";
import { navSearch } from "./nav-search.ts";
import { RepositoryIndex, type IndexStats } from "./repo-index.ts";
import { TextSearchEngine } from "./text-search.ts";

/** Files over this many bytes are listed but not read whole (1 MiB). */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
/** The most characters one `nav_read` chunk carries. */
export const DEFAULT_MAX_READ_CHARS = 20_000;
/** How long one search may run before it is stopped and answered with an error value. */
export const DEFAULT_SEARCH_TIMEOUT_MS = 5_000;

/** Options of {@link createNavTools}. */
export interface NavToolsOptions {
  /**
   * Where the index cache is kept across sessions, or `false` for no disk
   * cache. Default: {@link defaultIndexCacheDir} (the OS cache directory, never
   * inside the repository).
   */
  readonly cacheDir?: string | false;
  /** Files larger than this are listed but not read whole. Default {@link DEFAULT_MAX_FILE_BYTES}. */
  readonly maxFileBytes?: number;
  /** The most characters in one `nav_read` chunk. Default {@link DEFAULT_MAX_READ_CHARS}. */
  readonly maxReadChars?: number;
  /** Time limit of one search in milliseconds. Default {@link DEFAULT_SEARCH_TIMEOUT_MS}. */
  readonly searchTimeoutMs?: number;
  /**
   * Glob patterns of files the tools never show, besides `.git/` and ignored
   * files (see {@link ReadRule}). Default {@link DEFAULT_SECRET_FILES}; `[]` refuses none.
   */
  readonly secretFiles?: readonly string[];
  /**
   * The repository `repo` is a folder of, when it is not the repository's own root: the `.gitignore`
   * files above `repo` and the repository's `.git/info/exclude` apply too, as git applies them (see
   * {@link ReadRuleOptions.repositoryRoot}). Default: `repo` itself.
   */
  readonly repositoryRoot?: string;
  /**
   * Whether the tools watch the repository's folders once they have answered (one `fs.watch` each), so that a
   * long-lived process sees files written, added, removed or renamed, and `.gitignore` changes, at its next
   * call. Default true; with false, what the first walk listed stands until the tools are made again, and only
   * the tools that read a file state it again.
   */
  readonly watch?: boolean;
}

/** The six navigation tools over one repository, usable by a session or directly. */
export interface NavTools {
  /** `nav_info`, `nav_ls`, `nav_outline`, `nav_read`, `nav_search` and `nav_refs`, ready to register with a session. */
  readonly tools: Tool[];
  /** The repository at a glance, for the system prompt (same as `nav_info()`). */
  info(): Promise<NavInfo>;
  /** `nav_ls(path)`: a directory's entries, a file's top-level symbols, or a symbol's members. */
  ls(path?: string): Promise<NavListing | NavError>;
  /** `nav_outline(path)`: the symbol tree of one file. */
  outline(path: string): Promise<NavOutline | NavError>;
  /** `nav_read(target, options)`: a symbol, a file or a line range, chunked on line boundaries. */
  read(target: string, options?: NavReadOptions): Promise<NavReadResult | NavError>;
  /** `nav_search(query, options)`: matching lines with their enclosing symbol, or matching symbols. */
  search(query: string, options?: NavSearchOptions): Promise<NavSearchResult | NavError>;
  /** `nav_refs(name, options)`: where a symbol is used (calls, imports, member uses), each with its enclosing symbol. */
  refs(name: string, options?: NavRefsOptions): Promise<NavSearchResult | NavError>;
  /** The rule that decides what the tools may show: `readRule.refusal(path)` says why a path is refused. */
  readonly readRule: ReadRule;
  /** How the index was filled (files, analysed now, taken from the disk cache). */
  stats(): IndexStats;
  /** Saves the index cache, stops the search workers and lets go of the index's temporary files; the tools are not to be used afterwards. */
  close(): Promise<void>;
}

/**
 * Opens a repository for code navigation. Nothing is read until a tool needs
 * it; the index is then kept in memory and cached on disk across sessions
 * (keyed by path, size and mtime, so a changed file is re-indexed alone).
 *
 * @throws RepositoryNotFoundError when `repo` is not a readable directory
 * @example
 * const nav = await createNavTools("/path/to/repo");
 * const hits = await nav.search("retry", { glob: "src/**" });
 * const source = await nav.read("RetryPolicy.next");
 * await nav.close();
 */
export async function createNavTools(repo: string, options: NavToolsOptions = {}): Promise<NavTools> {
  const {
    cacheDir = defaultIndexCacheDir(),
    maxFileBytes = DEFAULT_MAX_FILE_BYTES,
    maxReadChars = DEFAULT_MAX_READ_CHARS,
    searchTimeoutMs = DEFAULT_SEARCH_TIMEOUT_MS,
    secretFiles,
    repositoryRoot,
    watch = true,
  } = options;
  let root: string;
  try {
    root = await fs.realpath(repo);
    if (!(await fs.stat(root)).isDirectory()) throw new Error("not a directory");
  } catch (cause) {
    throw new RepositoryNotFoundError({ repo, cause });
  }
  // Both real paths, so that the one holds the other as the file system has it.
  const outer = repositoryRoot === undefined ? undefined : await fs.realpath(repositoryRoot);
  const readRule = new ReadRule(root, { ...(secretFiles !== undefined ? { secretFiles } : {}), ...(outer !== undefined ? { repositoryRoot: outer } : {}) });
  const index = new RepositoryIndex(root, { cacheDir, maxFileBytes, readRule, watch });
  const engine = new TextSearchEngine(searchTimeoutMs);
  const context: NavContext = {
    index,
    engine,
    readRule,
    maxFileBytes,
    maxReadChars,
    searchFiles: (known) => index.searchFiles(known),
  };
  // A tool's answer comes before the search workers' background reading of every file (see TextSearchEngine.foreground).
  // Each call first takes in what changed in the repository since the last (see RepositoryIndex.watchSoon).
  const foreground = <T>(work: () => Promise<T>) =>
    engine.foreground(async () => {
      await index.refresh();
      try {
        return await work();
      } finally {
        index.watchSoon();
      }
    });
  const nav = {
    info: () => foreground(() => navInfo(context)),
    ls: (path = "") => foreground(() => navLs(context, path)),
    outline: (path: string) => foreground(() => navOutline(context, path)),
    read: (target: string, readOptions?: NavReadOptions) => foreground(() => navRead(context, target, readOptions)),
    search: (query: string, searchOptions?: NavSearchOptions) => foreground(() => navSearch(context, query, searchOptions)),
    refs: (name: string, refsOptions?: NavRefsOptions) => foreground(() => navRefs(context, name, refsOptions)),
  };
  return {
    ...nav,
    tools: createToolList(nav),
    readRule,
    stats: () => index.stats(),
    close: async () => {
      // The cache is written first (it reads symbols from the index's files), then searches still
      // running are cancelled (they answer with an error value), then those files are let go.
      await index.flush();
      await engine.close();
      await index.close();
    },
  };
}

type NavCalls = Pick<NavTools, "info" | "ls" | "outline" | "read" | "search" | "refs">;

function json(value: unknown): JsonValue {
  return value as JsonValue;
}

function createToolList(nav: NavCalls): Tool[] {
  return [
    defineTool({
      name: "nav_info",
      description: "The repository at a glance: root name, file/line/byte/symbol counts, languages, top-level directories, git HEAD.",
      parameters: { type: "object", properties: {}, additionalProperties: false },
      handler: async () => json(await nav.info()),
      example: "const repo = nav_info()",
    }),
    defineTool({
      name: "nav_ls",
      description: "Lists a directory (entries with language and line count), a file (its top-level symbols), or a symbol such as \"src/a.ts#Parser\" or \"Parser\" (its members). Paths are relative to the repository root.",
      parameters: {
        type: "object",
        properties: { path: { type: "string", description: "A directory, file or symbol; \"\" is the root.", default: "" } },
        additionalProperties: false,
      },
      handler: async ({ path }) => json(await nav.ls(path ?? "")),
      example: 'const entries = nav_ls("src")',
    }),
    defineTool({
      name: "nav_outline",
      description: "The symbol tree of one file: kind, qualified name, startLine/endLine (1-based, inclusive), signature and first doc line of each class, function, method, type and so on.",
      parameters: {
        type: "object",
        properties: { path: { type: "string", description: "A file path relative to the repository root." } },
        required: ["path"],
        additionalProperties: false,
      },
      handler: async ({ path }) => json(await nav.outline(path)),
      example: 'const outline = nav_outline("src/parser.ts")',
    }),
    defineTool({
      name: "nav_read",
      description: "The source of a symbol (\"Parser.parse\", or \"src/parser.ts#Parser.parse\" when ambiguous), a file (\"src/parser.ts\") or a line range (\"src/parser.ts:120-180\"). Returns {path, startLine, endLine, text, chunk, chunks}; ask for more with {chunk: n}.",
      parameters: {
        type: "object",
        properties: {
          target: { type: "string", description: "A symbol, a file path, or path:start-end." },
          options: {
            type: "object",
            properties: { chunk: { type: "integer", minimum: 1, description: "Which chunk, from 1." } },
            additionalProperties: false,
          },
        },
        required: ["target"],
        additionalProperties: false,
      },
      handler: async ({ target, options }) => json(await nav.read(target, options)),
      example: 'const source = nav_read("Parser.parseExpression")',
    }),
    defineTool({
      name: "nav_search",
      description: "Finds lines matching a literal (case-insensitive unless {caseSensitive: true}) or, with {regex: true}, a JavaScript regular expression matched one line at a time as ripgrep does (no backreferences or lookaround); each match has {path, line, column, text, symbol} where symbol is the enclosing symbol. {symbols: true} searches symbol names instead; {glob} filters paths; {limit} (default 50) caps matches and sets truncated.",
      parameters: {
        type: "object",
        properties: {
          query: { type: "string", description: "Text or pattern to find." },
          options: {
            type: "object",
            properties: {
              regex: { type: "boolean" },
              caseSensitive: { type: "boolean" },
              glob: { type: "string" },
              symbols: { type: "boolean" },
              limit: { type: "integer", minimum: 1, maximum: 1000 },
            },
            additionalProperties: false,
          },
        },
        required: ["query"],
        additionalProperties: false,
      },
      handler: async ({ query, options }) => json(await nav.search(query, options)),
      example: 'const hits = nav_search("retry", { glob: "src/**" })',
    }),
    defineTool({
      name: "nav_refs",
      description: "Where a symbol is used: calls, imports, member uses, types and plain names of \"parse\" or \"Parser.parse\" (found by name, uses written as asked first), each {path, line, column, text, symbol, reference} where symbol is the enclosing symbol and reference the kind of use. {glob} filters paths; {limit} (default 50) caps matches and sets truncated.",
      parameters: {
        type: "object",
        properties: {
          name: { type: "string", description: "A symbol name, bare or qualified." },
          options: {
            type: "object",
            properties: {
              glob: { type: "string" },
              limit: { type: "integer", minimum: 1, maximum: 1000 },
            },
            additionalProperties: false,
          },
        },
        required: ["name"],
        additionalProperties: false,
      },
      handler: async ({ name, options }) => json(await nav.refs(name, options)),
      example: 'const uses = nav_refs("Parser.parse")',
    }),
  ];
}
