import type { ReferenceKind } from "./reference-sites.ts";
import type { NavSymbol, SymbolKind } from "./symbol.ts";

/** A failure the model can act on, returned as a value instead of thrown. */
export interface NavError {
  /** What went wrong and, where possible, what would work. */
  readonly error: string;
  /** Close existing names or paths, best first, when the target was not found. */
  readonly didYouMean?: string[];
  /** The matching targets, each unambiguous (`path#Name`), when a bare name matched several. */
  readonly candidates?: string[];
  /** Set when the path exists but may not be read: in `.git/`, ignored by git, or a secret file. */
  readonly refused?: "git" | "ignored" | "secret";
}

/** True when a tool result is an error value. */
export function isNavError(value: unknown): value is NavError {
  return typeof value === "object" && value !== null && typeof (value as { error?: unknown }).error === "string";
}

/** Files and lines of one language, as counted by `nav_info`. */
export interface LanguageSummary {
  readonly language: string;
  readonly files: number;
  readonly lines: number;
}

/** The repository at a glance (`nav_info`). */
export interface NavInfo {
  /** The root directory's name (never the host path). */
  readonly root: string;
  readonly files: number;
  readonly lines: number;
  readonly bytes: number;
  readonly symbols: number;
  /** Languages by line count, largest first; files of unknown language count as `other`. */
  readonly languages: LanguageSummary[];
  /** Top-level directories, with a trailing `/`. */
  readonly directories: string[];
  /** The checked-out commit, when the root is a git checkout. */
  readonly head?: { readonly commit: string; readonly branch?: string };
}

/** A symbol in a listing or an outline. */
export type SymbolSummary = Pick<NavSymbol, "name" | "kind" | "startLine" | "endLine" | "signature" | "doc">;

/** One entry of a directory listing. */
export interface DirectoryEntry {
  readonly name: string;
  readonly type: "dir" | "file";
  /** For directories: the number of indexed files below. */
  readonly files?: number;
  readonly language?: string;
  /** For text files: the line count. */
  readonly lines?: number;
  readonly size?: number;
  readonly binary?: true;
  readonly large?: true;
}

/** What `nav_ls` returns for a directory, a file or a symbol. */
export type NavListing =
  | { readonly path: string; readonly type: "dir"; readonly entries: DirectoryEntry[] }
  | { readonly path: string; readonly type: "file"; readonly language?: string; readonly lines: number | null; readonly symbols: SymbolSummary[]; readonly binary?: true; readonly large?: true }
  | ({ readonly path: string; readonly type: "symbol"; readonly members: SymbolSummary[] } & SymbolSummary);

/** A symbol and its members, as `nav_outline` nests them. */
export interface OutlineNode extends SymbolSummary {
  readonly children?: OutlineNode[];
}

/** What `nav_outline` returns. */
export interface NavOutline {
  readonly path: string;
  readonly language?: string;
  readonly lines: number | null;
  readonly symbols: OutlineNode[];
}

/** Options of `nav_read`. */
export interface NavReadOptions {
  /** Which chunk of a long result, starting at 1 (default 1). */
  readonly chunk?: number;
}

/** What `nav_read` returns: one chunk of text, ending on a line boundary. */
export interface NavReadResult {
  readonly path: string;
  /** First line of this chunk (1-based). */
  readonly startLine: number;
  /** Last line of this chunk (inclusive). */
  readonly endLine: number;
  readonly text: string;
  /** This chunk's number, from 1. */
  readonly chunk: number;
  /** How many chunks the whole result has. */
  readonly chunks: number;
  /** The symbol read, when the target named one. */
  readonly symbol?: string;
  readonly kind?: SymbolKind;
}

/** Options of `nav_search`. */
export interface NavSearchOptions {
  /**
   * Treat the query as a JavaScript regular expression (default false: literal),
   * matched one line at a time as ripgrep matches: `\s`, negated classes and
   * the like never match a line break; backreferences and lookaround are refused.
   */
  readonly regex?: boolean;
  /** Match case exactly (default false). */
  readonly caseSensitive?: boolean;
  /** Only files whose path matches this glob, e.g. `src/**\/*.ts`; a glob without `/` matches file names. */
  readonly glob?: string;
  /** Search symbol names instead of file contents. */
  readonly symbols?: boolean;
  /** At most this many matches (default 50). */
  readonly limit?: number;
}

/** One match of `nav_search`. */
export interface SearchMatch {
  readonly path: string;
  readonly line: number;
  readonly column: number;
  /** The matching line (for symbol searches: the signature). */
  readonly text: string;
  /** The innermost symbol enclosing the match (for symbol searches: the symbol found), or null. */
  readonly symbol: string | null;
  /** For symbol searches: the symbol's kind. */
  readonly kind?: SymbolKind;
  /** For `nav_refs`: how the name is used there. */
  readonly reference?: ReferenceKind;
}

/** Options of `nav_refs`. */
export interface NavRefsOptions {
  /** Only files whose path matches this glob, as for `nav_search`. */
  readonly glob?: string;
  /** At most this many references (default 50). */
  readonly limit?: number;
}

/** What `nav_search` returns. */
export interface NavSearchResult {
  readonly matches: SearchMatch[];
  /** True when there were more matches than `limit`. */
  readonly truncated: boolean;
}
