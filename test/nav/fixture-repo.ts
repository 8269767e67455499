import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The shipped multi-language sources (TypeScript ones end in `.fixture` so the project's type check skips them). */
export const FIXTURE_SOURCE = fileURLToPath(new URL("../fixtures/nav-repo/", import.meta.url));
/** Names that are hard to write and the places they are used, in the eight languages with a grammar. */
export const NAMES_FIXTURE_SOURCE = fileURLToPath(new URL("../fixtures/nav-names/", import.meta.url));
/** This project's own repository root. */
export const PROJECT_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Writes a file at `relative` under `root`, making its folders first. */
export async function writeUnder(root: string, relative: string, text = "x\n"): Promise<void> {
  await fs.mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await fs.writeFile(path.join(root, relative), text);
}

/** Lines in `big/huge.ts`: 1,250 functions of four lines each. */
export const HUGE_LINES = 5000;

/** A fixture repository built in a temporary directory, with what git cannot keep safely. */
export interface FixtureRepo {
  /** The repository root. */
  readonly root: string;
  /** A directory beside the root that symlinks point into. */
  readonly outside: string;
  /** Removes everything. */
  readonly remove: () => Promise<void>;
}

/**
 * Copies the shipped fixture into a temp directory and adds: ignored paths
 * (root and nested `.gitignore`), a `.git/` directory, a binary file, a
 * 5,000-line file, a symlink to a file outside the root, a symlinked
 * directory outside the root, and a symlink that stays inside.
 */
export async function buildFixtureRepo(): Promise<FixtureRepo> {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-nav-"));
  const root = path.join(base, "nav-repo");
  const outside = path.join(base, "outside");
  await fs.cp(FIXTURE_SOURCE, root, { recursive: true });
  for (const file of await listFiles(root)) {
    if (file.endsWith(".fixture")) await fs.rename(file, file.slice(0, -".fixture".length));
  }
  const write = async (relative: string, contents: string | Buffer) => {
    const file = path.join(root, relative);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, contents);
  };
  await write("ignored/secret.ts", "export const IGNORED_SECRET = 1;\n");
  await write("debug.log", "retry log line\n");
  await write("src/.gitignore", "generated.ts\n");
  await write("src/generated.ts", "export function generatedThing(): void {}\n");
  await write(".git/HEAD", "ref: refs/heads/main\n");
  await write(".git/refs/heads/main", "0123456789abcdef0123456789abcdef01234567\n");
  await write(".git/config", "[core]\n\tretry = gitInternal\n");
  await write("assets/logo.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x72, 0x65, 0x74, 0x72, 0x79]));
  let huge = "";
  for (let index = 1; index <= HUGE_LINES / 4; index++) {
    const name = `step${String(index).padStart(4, "0")}`;
    huge += `export function ${name}(): number {\n  return ${index}; // huge body line\n}\n\n`;
  }
  await write("big/huge.ts", huge);
  await fs.mkdir(outside, { recursive: true });
  await fs.writeFile(path.join(outside, "secret.txt"), "TOP SECRET outside the repository\n");
  await fs.symlink(path.join(outside, "secret.txt"), path.join(root, "src", "escape.ts"));
  await fs.symlink(outside, path.join(root, "linked-outside"));
  await fs.symlink("util.js", path.join(root, "lib", "alias.js"));
  return { root, outside, remove: () => fs.rm(base, { recursive: true, force: true }) };
}

/** Copies a shipped fixture directory into a temp directory, `.fixture` suffixes removed. */
export async function copyFixture(source: string): Promise<{ readonly root: string; readonly remove: () => Promise<void> }> {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), "rlmkit-nav-"));
  const root = path.join(base, path.basename(source));
  await fs.cp(source, root, { recursive: true });
  for (const file of await listFiles(root)) {
    if (file.endsWith(".fixture")) await fs.rename(file, file.slice(0, -".fixture".length));
  }
  return { root, remove: () => fs.rm(base, { recursive: true, force: true }) };
}

async function listFiles(directory: string): Promise<string[]> {
  const entries = await fs.readdir(directory, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}
