import fs from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";
import picomatch from "picomatch";
import { readText } from "./git-files.ts";
import { namesGit } from "./git-names.ts";
import { outerIgnores, owningRepository, repositoryIgnores } from "./outer-ignores.ts";
import { DEFAULT_SECRET_FILES } from "./secret-files.ts";

/** Options of {@link ReadRule}. */
export interface ReadRuleOptions {
  /** Glob patterns of files never shown, besides `.git/` and ignored files; replaces {@link DEFAULT_SECRET_FILES} (`[]` refuses none). */
  readonly secretFiles?: readonly string[];
  /**
   * The repository the root is a folder of, when it is not the repository's own root: the `.gitignore`
   * files of the folders above the root (from this one down) and the repository's `.git/info/exclude`
   * apply too, as git applies them. A folder on the way that holds a `.git` of its own (a repository
   * nested in this one) is the repository instead. Default: the root. A rule above that ignores the
   * root's own folder refuses everything in it: the caller decides first whether the root may be read.
   */
  readonly repositoryRoot?: string;
}

/** Why a path may not be read. */
export type ReadRefusalReason = "git" | "ignored" | "secret";

/** A refused path: the reason, the path (or folder above it) that is refused, and a message that says why. */
export interface ReadRefusal {
  readonly reason: ReadRefusalReason;
  /** The refused path, relative to the root: the path asked about, or a folder above it. */
  readonly path: string;
  readonly message: string;
}

/**
 * Changes whenever what the rule refuses changes (a pattern's meaning, a new kind of refusal): a walk's
 * listing kept under another version is not used (see walk-listing.ts).
 */
export const READ_RULE_VERSION = 4;

/**
 * The one rule for which files of a repository a model may see, used by the
 * nav tools (their walk and every path they are given), MCP's `rlm_query`
 * `path` and the command line's `--context` inside a repository. Refused:
 * anything in `.git/`, anything git ignores (every `.gitignore` on the way,
 * nested ones below their folder, and `.git/info/exclude`), and files that
 * usually hold secrets ({@link DEFAULT_SECRET_FILES}, configurable).
 *
 * @example
 * const rule = new ReadRule("/path/to/repo");
 * rule.refusal(".env")?.message; // "'.env' may not be read: it matches the secret-file pattern '.env*' …"
 * rule.refusal("src/index.ts"); // undefined: allowed
 */
export class ReadRule {
  /** The repository root, as given (a real path for the nav tools). */
  readonly root: string;
  /** The secret-file patterns in force. */
  readonly secretFiles: readonly string[];
  // Compiled on first use: a walk kept from an earlier process (walk-listing.ts) tests no entry.
  #anySecret: ((relative: string) => boolean) | undefined;
  // Compiled on the first hit: only a refusal names the pattern that matched.
  #secretMatchers: { readonly pattern: string; readonly test: (relative: string) => boolean }[] | undefined;
  // The rules of each folder's .gitignore, by folder ("" is the root).
  readonly #ignores = new Map<string, Ignore | null>();
  // By folder: the folders from the root down to it that have rules, with their rules (usually none).
  readonly #chains = new Map<string, readonly FolderRules[]>();
  #firstReadAt: number | undefined;
  #realRoot: string | undefined;
  // The ignore files the rule read outside the root (see ignoresOutside), each named, with its text.
  #outside: string | undefined;

  /**
   * The repository whose ignore files apply (see {@link ReadRuleOptions.repositoryRoot}): the root, or the
   * innermost folder above it, within the one given, that holds a `.git` (resolved).
   */
  readonly repositoryRoot: string;
  /** True when ignore files above the root apply: the root is a folder of {@link repositoryRoot}. */
  readonly readsAbove: boolean;

  /** @throws TypeError when `repositoryRoot` is given and does not hold `root` */
  constructor(root: string, { secretFiles = DEFAULT_SECRET_FILES, repositoryRoot }: ReadRuleOptions = {}) {
    this.root = root;
    this.secretFiles = [...secretFiles];
    // Checked now, not on the first test of a path.
    this.repositoryRoot = repositoryRoot === undefined ? path.resolve(root) : owningRepository(repositoryRoot, root);
    this.readsAbove = this.repositoryRoot !== path.resolve(root);
  }

  /**
   * The ignore files that apply to the root from outside it, as the rule read them (git's global excludes
   * file, a worktree's exclusions, and for a folder of a repository the `.gitignore` files above it and
   * the repository's exclusions), each named, with its text: what a kept walk listing, which watches
   * only files inside the root, must have been made under (see walk-listing.ts).
   */
  get ignoresOutside(): string {
    if (this.#outside === undefined) this.#chainOf("");
    return this.#outside ?? "";
  }

  /** The options that make this rule again (for a walk on another thread). */
  get options(): ReadRuleOptions {
    return { secretFiles: this.secretFiles, ...(this.readsAbove ? { repositoryRoot: this.repositoryRoot } : {}) };
  }

  /**
   * Why `relative` (a `/`-separated path inside the root, a file or a folder)
   * may not be read, checking every folder above it too, and what it leads to when
   * it is (or goes through) a symlink; `undefined` when it may.
   *
   * @param followLinks - false for a real path (no symlink on the way), which needs no `realpath`
   */
  refusal(relative: string, { followLinks = true }: { readonly followLinks?: boolean } = {}): ReadRefusal | undefined {
    const segments = relative.split("/").filter((segment) => segment !== "" && segment !== ".");
    const asked = segments.join("/");
    for (let length = 1; length <= segments.length; length++) {
      const prefix = segments.slice(0, length).join("/");
      const last = length === segments.length;
      const refusal = this.#check(prefix, !last || isDirectory(path.join(this.root, prefix)), asked);
      if (refusal) return refusal;
    }
    // A symlink, or a path through a symlinked folder, shows what it leads to: a path inside the root that
    // may not be read is refused through it too (`notes.txt -> .git/config`, `env.txt -> .env`).
    const target = followLinks ? this.#linkTarget(asked) : undefined;
    // A real path has no link on the way: it is checked as it is.
    const behind = target === undefined ? undefined : this.refusal(target, { followLinks: false });
    return behind && { reason: behind.reason, path: asked, message: `'${asked}' may not be read: it leads to '${target}', and ${behind.message}` };
  }

  // Where `asked` leads, relative to the root with `/`, when that is another path inside the root.
  #linkTarget(asked: string): string | undefined {
    if (asked === "") return undefined;
    let real: string;
    try {
      real = fs.realpathSync(path.join(this.root, asked));
    } catch {
      return undefined;
    }
    this.#realRoot ??= realPathOf(this.root);
    const inside = path.relative(this.#realRoot, real);
    if (inside === "" || inside === ".." || inside.startsWith(`..${path.sep}`) || path.isAbsolute(inside)) return undefined;
    const target = inside.split(path.sep).join("/");
    return target === asked ? undefined : target;
  }

  /**
   * Why one entry may not be read, when the folders above it may be (what a
   * walk that never enters a refused folder needs); `undefined` when it may.
   *
   * @param parent - the folder holding the entry ("" for the root), exactly `relative` up to its last
   *   `/`; when given it is trusted, not checked. A walk passes the same string for every entry of a
   *   folder, so the folder is not cut out of each path and hashed again.
   */
  entryRefusal(relative: string, directory: boolean, parent?: string): ReadRefusal | undefined {
    return this.#check(relative, directory, relative, parent);
  }

  /**
   * Tells the rule whether a folder below the root holds a `.gitignore`, as a walk that
   * has just listed it knows, so the rule need not ask the disk (a 50,000-file tree has thousands of folders).
   */
  noteFolder(relative: string, hasGitignore: boolean): void {
    if (relative !== "" && !hasGitignore && !this.#ignores.has(relative)) {
      this.#firstReadAt ??= Date.now();
      this.#ignores.set(relative, null);
    }
  }

  /**
   * Forgets what the rule read of the ignore files, so that it reads them again as they are now when it next
   * needs them (an index whose watch saw a `.gitignore` change, say).
   */
  forgetIgnoreFiles(): void {
    this.#ignores.clear();
    this.#chains.clear();
    this.#outside = undefined;
    this.#firstReadAt = undefined;
  }

  /**
   * When the rule first took in what a folder's ignore files say (`Date.now()` time), or `undefined`
   * if it has not yet: it keeps what it read, so a walk under it sees the ignore files as they were then.
   */
  get firstReadAt(): number | undefined {
    return this.#firstReadAt;
  }

  // Runs for every entry a walk lists: no refusal, message or list of folders is made unless the entry is refused.
  #check(relative: string, directory: boolean, asked: string, parent?: string): ReadRefusal | undefined {
    const slash = relative.lastIndexOf("/");
    if (namesGit(relative, slash)) return refused(relative, asked, "git", "it is in .git/, git's own data (history, remotes, credentials), not the code");
    const rule = this.#ignoringRule(relative, parent ?? (slash === -1 ? "" : relative.slice(0, slash)), directory);
    if (rule) return refused(relative, asked, "ignored", `${relative === asked ? "it" : `its folder '${relative}'`} is ignored by git (${rule}), and ignored files are never shown`);
    // One test per file on the walk's hot path; the pattern that matched is looked up only on a hit.
    this.#anySecret ??= anySecretTest(this.secretFiles);
    if (!directory && this.#anySecret(relative)) {
      this.#secretMatchers ??= this.secretFiles.map((pattern) => ({ pattern, test: secretMatcher(pattern) }));
      const secret = this.#secretMatchers.find((matcher) => matcher.test(relative))!;
      return refused(relative, asked, "secret", `it matches the secret-file pattern '${secret.pattern}' (files that usually hold keys or passwords are never shown; the secretFiles option changes the list)`);
    }
    return undefined;
  }

  /** The rule (and the file it is in) that makes git ignore the entry in `parent`, or `undefined`. */
  #ignoringRule(relative: string, parent: string, directory: boolean): string | undefined {
    let verdict: string | undefined;
    for (const { folder, rules, prefix, file } of this.#chainOf(parent)) {
      // A file above the root reads the path from its own folder.
      const subject = prefix !== undefined ? prefix + relative : folder ? relative.slice(folder.length + 1) : relative;
      const result = rules.test(`${subject}${directory ? "/" : ""}`);
      if (result.ignored) verdict = `rule '${result.rule?.pattern ?? "?"}' in ${file ?? `${folder ? `${folder}/` : ""}.gitignore`}`;
      else if (result.unignored) verdict = undefined;
    }
    return verdict;
  }

  // The folders from the root down to `folder` (itself included) whose .gitignore has rules, top first.
  #chainOf(folder: string): readonly FolderRules[] {
    let chain = this.#chains.get(folder);
    if (chain) return chain;
    const slash = folder.lastIndexOf("/");
    // The root's chain is kept like any other, so what applies from the repository above it is read once.
    const above = folder === "" ? this.#fromRepository() : this.#chainOf(slash === -1 ? "" : folder.slice(0, slash));
    const rules = this.#rulesOf(folder);
    chain = rules ? [...above, { folder, rules }] : above;
    this.#chains.set(folder, chain);
    return chain;
  }

  // What applies before the root's own .gitignore, weakest first: git's global excludes file and the repository's
  // exclusions (any .gitignore overrides them, as in git), then the .gitignore files of the folders above the root.
  #fromRepository(): FolderRules[] {
    this.#firstReadAt ??= Date.now();
    const outer = this.readsAbove ? outerIgnores(this.repositoryRoot, this.root) : repositoryIgnores(this.root, this.root);
    // The root's own .git/info/exclude is inside the root (a kept listing watches it); the others are not.
    this.#outside = outer
      .filter(({ file }) => file !== ".git/info/exclude")
      .map(({ file, text }) => `${file}\0${text}\0`)
      .join("");
    return outer.map(({ prefix, rules, file }) => ({ folder: "", prefix, rules, file }));
  }

  #rulesOf(folder: string): Ignore | null {
    let rules = this.#ignores.get(folder);
    if (rules !== undefined) return rules;
    this.#firstReadAt ??= Date.now();
    const text = readText(path.join(this.root, folder, ".gitignore"));
    rules = text === undefined ? null : ignore().add(text);
    this.#ignores.set(folder, rules);
    return rules;
  }
}

/**
 * A pattern without `/` matches a name in any folder; with one, a path from the root. In any case: a file
 * system that ignores case (macOS's, Windows') opens `.env` for `.ENV`, and `ID_RSA` is as secret as `id_rsa`.
 */
function secretMatcher(pattern: string): (relative: string) => boolean {
  return picomatch(pattern, { dot: true, basename: !pattern.includes("/"), nocase: true });
}

/**
 * One test for all the patterns: those without `/` joined into one regular
 * expression run on the file's name, the others into one run on the whole path
 * (picomatch compiles each; 40 patterns then cost two regex runs per file, not 40),
 * plus picomatch's own shortcut for a path equal to a pattern.
 */
function anySecretTest(patterns: readonly string[]): (relative: string) => boolean {
  const union = (group: readonly string[]): RegExp | undefined =>
    group.length === 0 ? undefined : new RegExp(group.map((pattern) => `(?:${picomatch.makeRe(pattern, { dot: true, nocase: true }).source})`).join("|"), "i");
  const byName = union(patterns.filter((pattern) => !pattern.includes("/")));
  const byPath = union(patterns.filter((pattern) => pattern.includes("/")));
  // picomatch also matches a path equal to the pattern as written (`keys(old).txt`, whose parentheses are glob syntax).
  const exact = new Set(patterns.map((pattern) => pattern.toLowerCase()));
  return (relative) =>
    relative !== "" && (exact.has(relative.toLowerCase()) || (byName?.test(relative.slice(relative.lastIndexOf("/") + 1)) ?? false) || (byPath?.test(relative) ?? false));
}

interface FolderRules {
  readonly folder: string;
  readonly rules: Ignore;
  // For an ignore file above the root (see outer-ignores.ts): what makes a path its folder's. The file, when not the folder's .gitignore.
  readonly prefix?: string;
  readonly file?: string;
}

function refused(relative: string, asked: string, reason: ReadRefusalReason, why: string): ReadRefusal {
  return { reason, path: relative, message: `'${asked}' may not be read: ${why}` };
}

function realPathOf(absolute: string): string {
  try {
    return fs.realpathSync(absolute);
  } catch {
    return absolute;
  }
}

function isDirectory(absolute: string): boolean {
  try {
    return fs.statSync(absolute).isDirectory();
  } catch {
    return false;
  }
}
