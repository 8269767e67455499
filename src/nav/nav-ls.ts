import { pathNotFound, resolvePath, resolveSymbol, summarize, type NavContext } from "./nav-context.ts";
import type { DirectoryEntry, NavError, NavListing } from "./nav-results.ts";

/**
 * `nav_ls(path = "")`: a directory's entries, a file's top-level symbols, or
 * a symbol's direct members (`"src/a.ts#Parser"` or an unambiguous `"Parser"`).
 */
export async function navLs(context: NavContext, target = ""): Promise<NavListing | NavError> {
  const resolved = resolvePath(context, target);
  if (resolved && "error" in resolved) return resolved;
  if (resolved?.type === "dir") return listDirectory(context, resolved.path);
  if (resolved?.type === "file") {
    const record = await context.index.record(resolved.path);
    if (!record) return pathNotFound(context, resolved.path);
    return {
      path: record.path,
      type: "file",
      ...(record.language ? { language: record.language } : {}),
      lines: record.lines,
      symbols: record.symbols.filter((symbol) => !symbol.container).map(summarize),
      ...(record.binary ? { binary: true as const } : {}),
      ...(record.large ? { large: true as const } : {}),
    };
  }
  const looksLikePath = !target.includes("#") && (target.includes("/") || /\.[A-Za-z0-9]{1,5}$/.test(target));
  const symbol = await resolveSymbol(context, target);
  if ("error" in symbol && looksLikePath && !symbol.candidates) return pathNotFound(context, target);
  if ("error" in symbol) return symbol;
  const record = await context.index.record(symbol.path);
  const [first] = symbol.symbols;
  const members = (record?.symbols ?? []).filter((candidate) => candidate.container === first.name).map(summarize);
  return { path: symbol.path, type: "symbol", ...summarize(first), members };
}

async function listDirectory(context: NavContext, directory: string): Promise<NavListing> {
  const prefix = directory ? `${directory}/` : "";
  const subdirectories = new Map<string, number>();
  const files: string[] = [];
  for (const file of context.index.files()) {
    if (!file.path.startsWith(prefix)) continue;
    const rest = file.path.slice(prefix.length);
    const slash = rest.indexOf("/");
    if (slash === -1) files.push(file.path);
    else subdirectories.set(rest.slice(0, slash), (subdirectories.get(rest.slice(0, slash)) ?? 0) + 1);
  }
  const entries: DirectoryEntry[] = [...subdirectories].map(([name, count]) => ({ name, type: "dir" as const, files: count }));
  for (const file of files) {
    const record = await context.index.record(file);
    if (!record) continue;
    entries.push({
      name: file.slice(prefix.length),
      type: "file",
      ...(record.language ? { language: record.language } : {}),
      ...(record.lines !== null ? { lines: record.lines } : {}),
      size: record.size,
      ...(record.binary ? { binary: true as const } : {}),
      ...(record.large ? { large: true as const } : {}),
    });
  }
  return { path: directory, type: "dir", entries };
}
