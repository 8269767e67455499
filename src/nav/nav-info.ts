import path from "node:path";
import { readGitHead } from "./git-head.ts";
import type { NavContext } from "./nav-context.ts";
import type { LanguageSummary, NavInfo } from "./nav-results.ts";

/** `nav_info()`: the repository at a glance. Builds the whole index on first use. */
export async function navInfo(context: NavContext): Promise<NavInfo> {
  const records = await context.index.records();
  const languages = new Map<string, { files: number; lines: number }>();
  let lines = 0;
  let bytes = 0;
  let symbols = 0;
  const directories = new Set<string>();
  for (const record of records) {
    const language = record.language ?? "other";
    const summary = languages.get(language) ?? { files: 0, lines: 0 };
    summary.files++;
    summary.lines += record.lines ?? 0;
    languages.set(language, summary);
    lines += record.lines ?? 0;
    bytes += record.size;
    symbols += record.symbolCount;
    const slash = record.path.indexOf("/");
    if (slash !== -1) directories.add(`${record.path.slice(0, slash)}/`);
  }
  const languageList: LanguageSummary[] = [...languages]
    .map(([language, summary]) => ({ language, ...summary }))
    .sort((a, b) => b.lines - a.lines || b.files - a.files || (a.language < b.language ? -1 : 1));
  const head = readGitHead(context.index.root);
  return {
    root: path.basename(context.index.root),
    files: records.length,
    lines,
    bytes,
    symbols,
    languages: languageList,
    directories: [...directories].sort(),
    ...(head ? { head } : {}),
  };
}
