import { readRegularFile } from "./file-read.ts";
import { globMatcher } from "./file-rules.ts";
import { parseWithin } from "./grammars.ts";
import { detectLanguage } from "./languages.ts";
import { leadsToRefused, type NavContext } from "./nav-context.ts";
import type { NavError, NavRefsOptions, NavSearchResult, SearchMatch } from "./nav-results.ts";
import { symbolSpans } from "./cached-record.ts";
import { EnclosingSymbols } from "./enclosing-symbol.ts";
import { DEFAULT_SEARCH_LIMIT, searchWhileWalking } from "./nav-search.ts";
import { resolveInside } from "./path-safety.ts";
import { referenceAt, type ReferenceSite } from "./reference-sites.ts";
import { normalizeSymbolName, plainName, splitQualified } from "./symbol-names.ts";
import { lineText as searchLineText } from "./text-scan.ts";

// How many lines the text search may hand over; files are found through them, so this bounds the work of one call.
const CANDIDATE_LINES = 200_000;
const IDENTIFIER = /^#?[\p{L}_$][\p{L}\p{N}_$]*$/u;

/**
 * `nav_refs(name, { glob, limit })`: the places a symbol is used (calls,
 * imports, member uses, types, plain names), each with its enclosing symbol.
 * Uses are found by name, not by type: files whose text holds the name are
 * parsed with tree-sitter and each occurrence is classified by the syntax
 * around it (declarations, strings and comments are left out). Uses written
 * the way the query is (`Parser.parse` through `Parser`, or a bare `parse`
 * for a bare query) come first.
 */
export async function navRefs(context: NavContext, query: string, options: NavRefsOptions = {}): Promise<NavSearchResult | NavError> {
  const { glob, limit = DEFAULT_SEARCH_LIMIT } = options;
  if (!Number.isInteger(limit) || limit < 1) return { error: `limit must be a whole number from 1, got ${limit}` };
  const segments = splitQualified(plainName(normalizeSymbolName(query)));
  const own = segments.pop() ?? "";
  if (!IDENTIFIER.test(own)) {
    return { error: `nav_refs looks up an identifier such as 'parse' or 'Parser.parse'; '${own}' is not one (operators and empty names have no reference sites)` };
  }
  const qualifier = segments.length > 0 ? segments[segments.length - 1] : undefined;
  const found = await searchWhileWalking(context, {
    root: context.index.root,
    query: own.replace(/^#/, ""),
    regex: false,
    caseSensitive: true,
    limit: CANDIDATE_LINES,
    maxFileBytes: context.maxFileBytes,
    ...(glob ? { glob } : {}),
  });
  if ("error" in found) return { error: found.error };
  const isMatch = glob ? globMatcher(glob) : undefined;
  const paths = found.files().map((file) => file.path).filter((path) => !isMatch || isMatch(path));
  const ranked: { match: SearchMatch; tier: number }[] = [];
  let firstTier = 0;
  for (const path of paths) {
    // Nothing found later can come before what is already enough of the first tier.
    if (firstTier > limit) break;
    for (const entry of await fileReferences(context, path, own, qualifier)) {
      ranked.push(entry);
      if (entry.tier === 0) firstTier++;
    }
  }
  ranked.sort((a, b) => a.tier - b.tier);
  return { matches: ranked.slice(0, limit).map((entry) => entry.match), truncated: ranked.length > limit || found.truncated };
}

async function fileReferences(context: NavContext, path: string, name: string, qualifier: string | undefined): Promise<{ match: SearchMatch; tier: number }[]> {
  const grammar = detectLanguage(path)?.grammar;
  const record = grammar ? await context.index.record(path) : undefined;
  if (!grammar || !record || record.binary || record.large) return [];
  const safe = await resolveInside(context.index.root, path);
  if (!safe.ok || leadsToRefused(context, path, safe.absolute)) return [];
  const bytes = readRegularFile(safe.absolute);
  if (!(bytes instanceof Buffer)) return [];
  const text = bytes.toString("utf8");
  const tree = await parseWithin(grammar, text);
  if (!tree) return [];
  const declared = new Set(record.symbols.map((symbol) => `${symbol.line}:${symbol.column}`));
  const enclosing = new EnclosingSymbols(symbolSpans(record));
  const results: { match: SearchMatch; tier: number }[] = [];
  try {
    let line = 1;
    let lineStart = 0;
    for (let index = text.indexOf(name); index !== -1; index = text.indexOf(name, index + name.length)) {
      if (isWordChar(text.charCodeAt(index - 1)) || isWordChar(text.charCodeAt(index + name.length))) continue;
      const site = text[index - 1] === "#" ? referenceAt(tree.rootNode, index - 1, `#${name}`) : referenceAt(tree.rootNode, index, name);
      if (!site) continue;
      for (let newline = text.indexOf("\n", lineStart); newline !== -1 && newline < site.index; newline = text.indexOf("\n", lineStart)) {
        line++;
        lineStart = newline + 1;
      }
      const column = site.index - lineStart + 1;
      if (declared.has(`${line}:${column}`)) continue;
      const match: SearchMatch = { path, line, column, text: lineText(text, lineStart, site.index), symbol: enclosing.nameAt(line), reference: site.kind };
      results.push({ match, tier: tierOf(site, qualifier) });
    }
  } finally {
    tree.delete();
  }
  return results;
}

// 0: written as asked (through the asked qualifier, or bare for a bare name); 1: any other use of the name.
function tierOf(site: ReferenceSite, qualifier: string | undefined): number {
  if (qualifier === undefined) return site.qualifier === undefined ? 0 : 1;
  return site.qualifier !== undefined && (site.qualifier === qualifier || site.qualifier.endsWith(`.${qualifier}`)) ? 0 : 1;
}

function isWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36 || code > 127;
}

// The text a reference shows of its line, cut as a search's is (see text-scan.ts).
function lineText(text: string, lineStart: number, position: number): string {
  const newline = text.indexOf("\n", lineStart);
  return searchLineText(text, lineStart, newline === -1 ? text.length : newline, position);
}
