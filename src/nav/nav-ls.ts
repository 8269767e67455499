import { pathNotFound, summarize, unreadable, type NavContext } from "./nav-context.ts";
import type { DirectoryEntry, NavError, NavListing } from "./nav-results.ts";
import { parseTarget } from "./nav-target.ts";
import { resolveSymbol } from "./symbol-lookup.ts";
import { plainName } from "./symbol-names.ts";

/**
 * `nav_ls(path = "")`: a directory's entries, a file's top-level symbols, or
 * a symbol's direct members (`"src/a.ts#Parser"` or an unambiguous `"Parser"`).
 */
export async function navLs(context: NavContext, target = ""): Promise<NavListing | NavError> {
  const parsed = parseTarget(context, target);
  if ("error" in parsed) return parsed;
  if (parsed.type === "missing-path") return pathNotFound(context, parsed.path);
  if (parsed.type === "range") return { error: `'${target}' is a line range; nav_ls takes a directory, a file or a symbol (read ranges with nav_read)` };
  if (parsed.type === "path" && parsed.resolved.type === "dir") return listDirectory(context, parsed.resolved.path);
  if (parsed.type === "path") {
    const record = await context.index.record(parsed.resolved.path);
    if (!record) return unreadable(context, parsed.resolved.path);
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
  const symbol = await resolveSymbol(context, parsed.name, parsed.file);
  if ("error" in symbol) return parsed.pathLike && !symbol.candidates ? pathNotFound(context, target) : symbol;
  const record = await context.index.record(symbol.path);
  const [first] = symbol.symbols;
  const members = (record?.symbols ?? []).filter((candidate) => candidate.container !== undefined && (candidate.container === first.name || plainName(candidate.container) === first.name)).map(summarize);
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
