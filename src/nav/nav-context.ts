import path from "node:path";
import { didYouMean } from "./did-you-mean.ts";
import type { FileRecord } from "./file-analysis.ts";
import type { NavError, SymbolSummary } from "./nav-results.ts";
import { normalizeRelativePath } from "./path-safety.ts";
import type { RepositoryIndex } from "./repo-index.ts";
import type { NavSymbol } from "./symbol.ts";
import type { SearchFile, TextSearchEngine } from "./text-search.ts";

/** What every navigation tool works from. */
export interface NavContext {
  readonly index: RepositoryIndex;
  readonly engine: TextSearchEngine;
  readonly maxFileBytes: number;
  readonly maxReadChars: number;
  /** The files handed to the search worker (the same array while the file list is unchanged). */
  readonly searchFiles: () => SearchFile[];
}

/** A path argument that names something in the index. */
export type ResolvedPath =
  | { readonly type: "dir"; readonly path: string }
  | { readonly type: "file"; readonly path: string };

/** A symbol target resolved to one file; overloads come together. */
export interface ResolvedSymbol {
  readonly path: string;
  /** Every declaration with this qualified name in this file (several for overloads). */
  readonly symbols: NavSymbol[];
}

/**
 * Resolves a path argument to an indexed directory or file, refusing `..`,
 * absolute paths and symlinks that leave the repository. `undefined` means
 * the path is valid but names nothing indexed (the caller may try a symbol).
 */
export function resolvePath(context: NavContext, input: string): ResolvedPath | NavError | undefined {
  const normalized = normalizeRelativePath(input);
  if (!normalized.ok) return { error: normalized.error };
  const relative = normalized.relative;
  const segments = relative.split("/");
  for (let length = 1; length <= segments.length; length++) {
    const prefix = segments.slice(0, length).join("/");
    if (context.index.isOutsideLink(prefix)) {
      return { error: `'${prefix}' is a symlink that points outside the repository; it cannot be read` };
    }
  }
  if (context.index.isDirectory(relative)) return { type: "dir", path: relative };
  if (context.index.file(relative)) return { type: "file", path: relative };
  return undefined;
}

/** An error for a path that names nothing, suggesting similar paths. */
export function pathNotFound(context: NavContext, relative: string): NavError {
  const base = path.posix.basename(relative);
  const paths = context.index.files().map((file) => file.path);
  const byName = paths.filter((candidate) => path.posix.basename(candidate) === base);
  const suggestions = byName.length > 0 ? byName.slice(0, 5) : didYouMean(relative, paths);
  return {
    error: `no file or directory '${relative}' in the repository (ignored files are not indexed)`,
    ...(suggestions.length > 0 ? { didYouMean: suggestions } : {}),
  };
}

/**
 * Finds the symbol a target names: `path#Name`, a qualified name
 * (`Parser.parseExpression`) or a bare member name (`parseExpression`). An
 * ambiguous name returns the candidates; an unknown one the closest names.
 */
export async function resolveSymbol(context: NavContext, target: string): Promise<ResolvedSymbol | NavError> {
  const hash = target.indexOf("#");
  if (hash !== -1) {
    const filePart = target.slice(0, hash);
    const name = target.slice(hash + 1).replace(/::/g, ".");
    const resolved = resolvePath(context, filePart);
    if (resolved && "error" in resolved) return resolved;
    if (!resolved) return pathNotFound(context, filePart);
    if (resolved.type !== "file") return { error: `'${resolved.path}' is a directory; write 'file#Name', e.g. '${resolved.path}/index.ts#main'` };
    const record = await context.index.record(resolved.path);
    if (!record) return pathNotFound(context, resolved.path);
    return pickSymbol(name, [record], `${resolved.path}#`);
  }
  const name = target.replace(/::/g, ".");
  return pickSymbol(name, await context.index.records(), "");
}

function pickSymbol(name: string, records: readonly FileRecord[], prefix: string): ResolvedSymbol | NavError {
  const groups = new Map<string, ResolvedSymbol>();
  const collect = (test: (symbol: NavSymbol) => boolean) => {
    for (const record of records) {
      for (const symbol of record.symbols) {
        if (!test(symbol)) continue;
        const key = `${record.path}#${symbol.name}`;
        const group = groups.get(key);
        if (group) group.symbols.push(symbol);
        else groups.set(key, { path: record.path, symbols: [symbol] });
      }
    }
  };
  collect((symbol) => symbol.name === name);
  if (groups.size === 0) {
    const suffix = `.${name}`;
    collect((symbol) => symbol.name.endsWith(suffix));
  }
  if (groups.size === 1) return [...groups.values()][0];
  if (groups.size > 1) {
    const candidates = [...groups.keys()];
    return {
      error: `'${name}' is ambiguous: ${candidates.length} symbols match; read one of the candidates`,
      candidates: candidates.slice(0, 20),
    };
  }
  const names = new Set<string>();
  for (const record of records) for (const symbol of record.symbols) names.add(symbol.name);
  const suggestions = didYouMean(name, names);
  return {
    error: `no symbol named '${name}'${prefix ? ` in ${prefix.slice(0, -1)}` : ""}`,
    ...(suggestions.length > 0 ? { didYouMean: suggestions.map((suggestion) => `${prefix}${suggestion}`) } : {}),
  };
}

/** The listing form of a symbol. */
export function summarize(symbol: NavSymbol): SymbolSummary {
  return {
    name: symbol.name,
    kind: symbol.kind,
    startLine: symbol.startLine,
    endLine: symbol.endLine,
    signature: symbol.signature,
    ...(symbol.doc ? { doc: symbol.doc } : {}),
  };
}
