// Where git keeps the ignore files that are not `.gitignore` files in the work tree: a repository's
// exclusions (`info/exclude` in its git folder, which a worktree shares with its main repository) and
// the global excludes file (`core.excludesFile`, by default `~/.config/git/ignore`).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * The folder where git keeps a repository's own data: its `.git` folder, or the folder a `.git` file
 * names (`gitdir: …`, as a worktree or a submodule has); `undefined` when it has neither.
 */
export function gitDirOf(repository: string): string | undefined {
  const dotGit = path.join(repository, ".git");
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dotGit);
  } catch {
    return undefined;
  }
  if (stat.isDirectory()) return dotGit;
  const named = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? "")?.[1];
  return named === undefined ? undefined : path.resolve(repository, named);
}

/** The git folder a worktree's shares with its main repository (its `commondir`), else the git folder itself. */
export function commonDirOf(gitDir: string): string {
  const common = readText(path.join(gitDir, "commondir"))?.trim();
  return common ? path.resolve(gitDir, common) : gitDir;
}

/** The repository's exclusions file (`info/exclude` of its common git folder), or `undefined` without a git folder. */
export function exclusionsFileOf(repository: string): string | undefined {
  const gitDir = gitDirOf(repository);
  return gitDir === undefined ? undefined : path.join(commonDirOf(gitDir), "info", "exclude");
}

/**
 * The global excludes file git reads for this repository: the last `core.excludesFile` of the system's
 * (`$GIT_CONFIG_SYSTEM`, else `/etc/gitconfig`; none with `GIT_CONFIG_NOSYSTEM`), the user's
 * (`$GIT_CONFIG_GLOBAL`, else `$XDG_CONFIG_HOME/git/config` then `~/.gitconfig`) and the repository's
 * config files, in git's order (`[include]` files are not followed), or else `$XDG_CONFIG_HOME/git/ignore`
 * (`~/.config/git/ignore`). A leading `~/` is the home folder; a relative path is the repository's.
 * `undefined` for a folder that is not a repository (no `.git`): git applies it only in one.
 */
export function globalExcludesFile(repository: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const gitDir = gitDirOf(repository);
  if (gitDir === undefined) return undefined;
  const home = env.HOME || os.homedir();
  const xdg = env.XDG_CONFIG_HOME || path.join(home, ".config");
  const system = isTrue(env.GIT_CONFIG_NOSYSTEM) ? [] : [env.GIT_CONFIG_SYSTEM || "/etc/gitconfig"];
  // An empty GIT_CONFIG_GLOBAL means no user config file at all.
  const user = env.GIT_CONFIG_GLOBAL !== undefined ? (env.GIT_CONFIG_GLOBAL ? [env.GIT_CONFIG_GLOBAL] : []) : [path.join(xdg, "git", "config"), path.join(home, ".gitconfig")];
  const configs = [...system, ...user, path.join(commonDirOf(gitDir), "config")];
  let chosen: string | undefined;
  for (const config of configs) chosen = excludesFileIn(readText(config)) ?? chosen;
  if (chosen === undefined) return path.join(xdg, "git", "ignore");
  if (chosen === "~" || chosen.startsWith("~/")) return path.join(home, chosen.slice(1));
  return path.resolve(repository, chosen);
}

// A boolean environment variable as git reads one: true, yes, on, or a number other than 0.
function isTrue(value: string | undefined): boolean {
  const text = value?.trim() ?? "";
  return /^(true|yes|on)$/i.test(text) || (/^-?\d+$/.test(text) && Number(text) !== 0);
}

// The last `excludesFile` of the `[core]` section in a git config file's text (names ignore case).
function excludesFileIn(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let inCore = false;
  let found: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    let line = raw;
    const section = /^\s*\[\s*([A-Za-z0-9.-]+)\s*(?:"[^"]*"\s*)?\]/.exec(line);
    if (section) {
      // `[core "x"]` is a subsection, not the core section.
      inCore = section[1]!.toLowerCase() === "core" && !section[0].includes('"');
      // A key may follow the header on its line: `[core] excludesFile = x`.
      line = line.slice(section[0].length);
    }
    if (!inCore) continue;
    const entry = /^\s*excludesfile\s*=\s*(.*)$/i.exec(line);
    if (entry) found = configValue(entry[1]!);
  }
  return found;
}

// A config value: quotes removed, `\"`, `\\`, `\t` and `\n` unescaped, a `#` or `;` outside quotes starting a comment.
function configValue(raw: string): string {
  let value = "";
  let quoted = false;
  for (let at = 0; at < raw.length; at++) {
    const char = raw[at]!;
    if (char === "\\" && at + 1 < raw.length) {
      const next = raw[++at]!;
      value += next === "t" ? "\t" : next === "n" ? "\n" : next;
    } else if (char === '"') quoted = !quoted;
    else if (!quoted && (char === "#" || char === ";")) break;
    else value += char;
  }
  return value.trim();
}

/** A file's text, or undefined when it cannot be read (most folders have no `.gitignore`: asking first is cheaper than a failed read). */
export function readText(file: string): string | undefined {
  if (!fs.existsSync(file)) return undefined;
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
