import { pathNotFound, summarize, unreadable, type NavContext } from "./nav-context.ts";
import type { NavError, NavOutline, OutlineNode } from "./nav-results.ts";
import { parseTarget } from "./nav-target.ts";
import { plainName } from "./symbol-names.ts";

/**
 * `nav_outline(path)`: the symbol tree of one file. Members nest under their
 * container by qualified name, so `Shape::area` defined outside its class
 * still appears under `Shape`.
 */
export async function navOutline(context: NavContext, target: string): Promise<NavOutline | NavError> {
  const parsed = parseTarget(context, target);
  if ("error" in parsed) return parsed;
  if (parsed.type !== "path") return pathNotFound(context, parsed.type === "symbol" ? target : parsed.path);
  const resolved = parsed.resolved;
  if (resolved.type === "dir") return { error: `'${resolved.path || "."}' is a directory; nav_outline takes a file (list directories with nav_ls)` };
  const record = await context.index.record(resolved.path);
  if (!record) return unreadable(context, resolved.path);
  const roots: OutlineNode[] = [];
  const byName = new Map<string, OutlineNode & { children?: OutlineNode[] }>();
  for (const symbol of record.symbols) {
    const node: OutlineNode & { children?: OutlineNode[] } = summarize(symbol);
    const parent = symbol.container ? byName.get(symbol.container) ?? byName.get(plainName(symbol.container)) : undefined;
    if (parent) (parent.children ??= []).push(node);
    else roots.push(node);
    byName.set(symbol.name, node);
  }
  return { path: record.path, ...(record.language ? { language: record.language } : {}), lines: record.lines, symbols: roots };
}
