export { createNavTools, DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_READ_CHARS, DEFAULT_SEARCH_TIMEOUT_MS } from "./create-nav-tools.ts";
export type { NavTools, NavToolsOptions } from "./create-nav-tools.ts";
export { isNavError } from "./nav-results.ts";
export type {
  DirectoryEntry,
  LanguageSummary,
  NavError,
  NavInfo,
  NavListing,
  NavOutline,
  NavReadOptions,
  NavReadResult,
  NavRefsOptions,
  NavSearchOptions,
  NavSearchResult,
  OutlineNode,
  SearchMatch,
  SymbolSummary,
} from "./nav-results.ts";
export { DEFAULT_SEARCH_LIMIT } from "./nav-search.ts";
export { navRepoSummary } from "./nav-prompt.ts";
export { defaultIndexCacheDir } from "./index-cache.ts";
export { detectLanguage } from "./languages.ts";
export type { GrammarName, LanguageInfo } from "./languages.ts";
export { extractSymbols } from "./extract-symbols.ts";
export type { NavSymbol, SymbolKind } from "./symbol.ts";
export type { ReferenceKind } from "./reference-sites.ts";
export type { IndexStats } from "./repo-index.ts";
