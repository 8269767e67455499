import type { NavInfo } from "./nav-results.ts";

/**
 * A few lines describing a repository for the `{{repo_summary}}` slot of
 * `prompts/nav-tools.md`.
 *
 * @example
 * navRepoSummary(await nav.info())
 * // "rlmkit: 120 files, 15,000 lines, 900 symbols (typescript 14,000 lines in 100 files, …). Top-level directories: src/, test/. HEAD main @ 1a2b3c4d5e6f."
 */
export function navRepoSummary(info: NavInfo): string {
  const languages = info.languages
    .slice(0, 6)
    .map((language) => `${language.language} ${language.lines.toLocaleString("en-US")} lines in ${language.files} files`)
    .join(", ");
  const head = info.head ? ` HEAD ${info.head.branch ? `${info.head.branch} @ ` : ""}${info.head.commit.slice(0, 12)}.` : "";
  const directories = info.directories.length > 0 ? ` Top-level directories: ${info.directories.slice(0, 20).join(", ")}.` : "";
  return `${info.root}: ${info.files.toLocaleString("en-US")} files, ${info.lines.toLocaleString("en-US")} lines, ${info.symbols.toLocaleString("en-US")} symbols (${languages}).${directories}${head}`;
}
