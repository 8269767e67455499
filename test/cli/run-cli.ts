import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "../support/temp-dir.ts";

/** The command line's entry point, as `npx rlmkit` runs it. */
export const BIN = fileURLToPath(new URL("../../bin/rlmkit.js", import.meta.url));

/** What a finished `rlmkit` child process left behind. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `rlmkit ARGS` as a child process with a clean environment (no OPENAI_* or
 * RLMKIT_* from the developer's shell, a private cache folder) plus `env`.
 */
export function runCli(args: readonly string[], { cwd, env = {}, input }: { cwd?: string; env?: Record<string, string>; input?: string } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), XDG_CACHE_HOME: cacheHome(), ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? "");
  });
}

let cache: string | undefined;
/** The child's cache folder (XDG_CACHE_HOME): one per test file, removed when the file's tests have finished. */
function cacheHome(): string {
  cache ??= tempDir("rlmkit-cli-cache-");
  return cache;
}

/** Creates a small repository in a temporary folder (removed when the test file's tests have finished) from a map of relative paths to contents. */
export function makeRepo(files: Record<string, string>): string {
  const root = tempDir("rlmkit-cli-repo-");
  for (const [path, contents] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), contents);
  }
  return root;
}

/** A tiny TypeScript project for nav and ask tests. */
export const SAMPLE_FILES: Record<string, string> = {
  "src/retry.ts": [
    "/** Waits longer after each failure. */",
    "export class RetryPolicy {",
    "  constructor(readonly base = 100) {}",
    "  /** The delay before attempt n. */",
    "  next(attempt: number): number {",
    "    return this.base * 2 ** attempt;",
    "  }",
    "}",
    "",
  ].join("\n"),
  "src/main.ts": "import { RetryPolicy } from './retry.ts';\n\nexport function start(): number {\n  return new RetryPolicy().next(3);\n}\n",
  "README.md": "# sample\n\nA retry helper.\n",
};

/** A fenced JavaScript block, as a model writes it. */
export function js(code: string): string {
  return `\`\`\`js\n${code}\n\`\`\``;
}
