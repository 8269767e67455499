import path from "node:path";

/** The tree-sitter grammars rlmkit ships; each names a `.wasm` file of `@repomix/tree-sitter-wasms`. */
export type GrammarName = "typescript" | "tsx" | "javascript" | "python" | "go" | "rust" | "java" | "c" | "cpp";

/** How a file is understood: a language name, and the grammar that extracts its symbols if any. */
export interface LanguageInfo {
  /** A lower-case language name such as `typescript`, `python` or `markdown`. */
  readonly language: string;
  /** The grammar used for symbols; absent for languages that are listed, read and searched only. */
  readonly grammar?: GrammarName;
}

const BY_EXTENSION: Record<string, LanguageInfo> = {
  ".ts": { language: "typescript", grammar: "typescript" },
  ".mts": { language: "typescript", grammar: "typescript" },
  ".cts": { language: "typescript", grammar: "typescript" },
  ".tsx": { language: "typescript", grammar: "tsx" },
  ".js": { language: "javascript", grammar: "javascript" },
  ".mjs": { language: "javascript", grammar: "javascript" },
  ".cjs": { language: "javascript", grammar: "javascript" },
  ".jsx": { language: "javascript", grammar: "javascript" },
  ".py": { language: "python", grammar: "python" },
  ".pyi": { language: "python", grammar: "python" },
  ".go": { language: "go", grammar: "go" },
  ".rs": { language: "rust", grammar: "rust" },
  ".java": { language: "java", grammar: "java" },
  ".c": { language: "c", grammar: "c" },
  // Headers are often C++; the C++ grammar also reads plain C declarations.
  ".h": { language: "c", grammar: "cpp" },
  ".cc": { language: "cpp", grammar: "cpp" },
  ".cpp": { language: "cpp", grammar: "cpp" },
  ".cxx": { language: "cpp", grammar: "cpp" },
  ".c++": { language: "cpp", grammar: "cpp" },
  ".hh": { language: "cpp", grammar: "cpp" },
  ".hpp": { language: "cpp", grammar: "cpp" },
  ".hxx": { language: "cpp", grammar: "cpp" },
  ".ipp": { language: "cpp", grammar: "cpp" },
  ".md": { language: "markdown" },
  ".markdown": { language: "markdown" },
  ".json": { language: "json" },
  ".jsonc": { language: "json" },
  ".yml": { language: "yaml" },
  ".yaml": { language: "yaml" },
  ".toml": { language: "toml" },
  ".html": { language: "html" },
  ".htm": { language: "html" },
  ".css": { language: "css" },
  ".scss": { language: "scss" },
  ".sh": { language: "shell" },
  ".bash": { language: "shell" },
  ".zsh": { language: "shell" },
  ".rb": { language: "ruby" },
  ".php": { language: "php" },
  ".cs": { language: "csharp" },
  ".kt": { language: "kotlin" },
  ".kts": { language: "kotlin" },
  ".swift": { language: "swift" },
  ".scala": { language: "scala" },
  ".lua": { language: "lua" },
  ".pl": { language: "perl" },
  ".sql": { language: "sql" },
  ".xml": { language: "xml" },
  ".svg": { language: "svg" },
  ".txt": { language: "text" },
  ".rst": { language: "restructuredtext" },
  ".vue": { language: "vue" },
  ".svelte": { language: "svelte" },
};

const BY_FILENAME: Record<string, LanguageInfo> = {
  makefile: { language: "make" },
  gnumakefile: { language: "make" },
  dockerfile: { language: "dockerfile" },
  "cmakelists.txt": { language: "cmake" },
  gemfile: { language: "ruby" },
  rakefile: { language: "ruby" },
  ".gitignore": { language: "gitignore" },
};

const BY_INTERPRETER: Record<string, LanguageInfo> = {
  python: { language: "python", grammar: "python" },
  node: { language: "javascript", grammar: "javascript" },
  deno: { language: "typescript", grammar: "typescript" },
  "ts-node": { language: "typescript", grammar: "typescript" },
  tsx: { language: "typescript", grammar: "typescript" },
  bash: { language: "shell" },
  sh: { language: "shell" },
  zsh: { language: "shell" },
  dash: { language: "shell" },
  ruby: { language: "ruby" },
  perl: { language: "perl" },
};

/**
 * Decides a file's language from its name (extension, then well-known file
 * names) and, for files without either, from a `#!` line.
 *
 * @param relativePath - the path inside the repository, with `/`
 * @param firstLine - the file's first line, consulted only for a shebang
 * @returns the language, or `undefined` when nothing identifies it
 * @example
 * detectLanguage("src/app.tsx") // { language: "typescript", grammar: "tsx" }
 * detectLanguage("bin/run", "#!/usr/bin/env python3") // { language: "python", grammar: "python" }
 */
export function detectLanguage(relativePath: string, firstLine?: string): LanguageInfo | undefined {
  const base = path.posix.basename(relativePath).toLowerCase();
  const byName = BY_FILENAME[base];
  if (byName) return byName;
  if (base.endsWith(".d.ts")) return BY_EXTENSION[".ts"];
  const byExtension = BY_EXTENSION[path.posix.extname(base)];
  if (byExtension) return byExtension;
  if (firstLine?.startsWith("#!")) return fromShebang(firstLine);
  return undefined;
}

/**
 * A file's language from its path and its text: by name, or, for a file whose name cannot decide it, by the
 * text's first line (see {@link detectLanguage}).
 */
export function detectTextLanguage(relativePath: string, text: string): LanguageInfo | undefined {
  return detectLanguage(relativePath, needsShebang(relativePath) ? text.slice(0, text.indexOf("\n") >>> 0) : undefined);
}

/** True when the name alone cannot decide the language, so the first line should be read. */
export function needsShebang(relativePath: string): boolean {
  const base = path.posix.basename(relativePath).toLowerCase();
  return !(base in BY_FILENAME) && path.posix.extname(base) === "";
}

function fromShebang(line: string): LanguageInfo | undefined {
  const words = line.slice(2).trim().split(/\s+/);
  let program = path.posix.basename(words[0] ?? "");
  if (program === "env") {
    program = path.posix.basename(words.slice(1).find((word) => !word.startsWith("-")) ?? "");
  }
  const interpreter = program.replace(/[\d.]+$/, "");
  return BY_INTERPRETER[interpreter];
}
