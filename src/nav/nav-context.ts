import fs from "node:fs";
import path from "node:path";
import type { ReadRefusal, ReadRule } from "../access/read-rule.ts";
import { didYouMean } from "./did-you-mean.ts";
import type { NavError, SymbolSummary } from "./nav-results.ts";
import { leadsOutside, normalizeRelativePath, outsideLinkMessage } from "./path-safety.ts";
import type { RepositoryIndex } from "./repo-index.ts";
import type { NavSymbol } from "./symbol.ts";
import type { KnownStats } from "./walk-listing.ts";
import type { SearchFile, TextSearchEngine } from "./text-search.ts";
import { pathUnder } from "./text-scan.ts";

/** What every navigation tool works from. */
export interface NavContext {
  readonly index: RepositoryIndex;
  /** What may be read; a refused path gets an error that says why. */
  readonly readRule: ReadRule;
  readonly engine: TextSearchEngine;
  readonly maxFileBytes: number;
  readonly maxReadChars: number;
  /** The files handed to the search worker (the same array while the file list is unchanged); see `RepositoryIndex.searchFiles`. */
  readonly searchFiles: (known?: KnownStats) => SearchFile[];
}

/** A path argument that names something in the index. */
export type ResolvedPath =
  | { readonly type: "dir"; readonly path: string }
  | { readonly type: "file"; readonly path: string };

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
      // The walk lists a link whose target is missing with those that leave (neither can be read); the message tells them apart.
      return { error: outsideLinkMessage(prefix, !fs.existsSync(path.join(context.index.root, prefix))) };
    }
  }
  if (context.index.isDirectory(relative)) return { type: "dir", path: relative };
  if (context.index.file(relative)) return { type: "file", path: relative };
  // Not indexed: when it exists, the read rule says why it is not shown (an ignored, secret or .git path, or a
  // link out of the repository, one made since the walk too).
  if (relative !== "" && fs.existsSync(path.join(context.index.root, relative))) {
    const refused = refusalOf(context, relative);
    if (refused) return refused;
  }
  return undefined;
}

/**
 * The read rule's refusal of an indexed file that is read through a symlink (`real`, its real path, is not
 * where the path itself is): the link, or a folder on the way, may lead elsewhere since the walk listed it
 * (a checkout that turned a file into a link to `.env`). `undefined` for a plain file, or a link the rule allows.
 */
export function leadsToRefused(context: NavContext, relative: string, real: string): ReadRefusal | undefined {
  return real === pathUnder(context.index.root, relative) ? undefined : context.readRule.refusal(relative);
}

/**
 * The error for an indexed path the index has no record of: the read rule's refusal when the path now
 * leads to what it refuses (a file turned into a link to `.env` since the walk), the same error as for
 * any link out of the repository when it leads out, else {@link pathNotFound}.
 */
export function unreadable(context: NavContext, relative: string): NavError {
  return refusalOf(context, relative) ?? pathNotFound(context, relative);
}

// Why an existing path may not be read: the read rule's refusal, or a link that leads out of the repository.
function refusalOf(context: NavContext, relative: string): NavError | undefined {
  const refusal = context.readRule.refusal(relative);
  if (refusal) return { error: refusal.message, refused: refusal.reason };
  if (leadsOutside(context.index.root, context.index.absolute(relative))) return { error: outsideLinkMessage(relative) };
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
