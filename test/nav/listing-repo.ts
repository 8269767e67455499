// A repository for the kept-listing tests (walk-listing*.test.ts): folders, nested and root
// .gitignore files, ignored and secret files, an empty folder, .git/info, and symlinks inside and out.
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { writeUnder } from "./fixture-repo.ts";

/** Makes the repository in a new temporary folder: `root` is the repository, `base` holds it and the folder outside it. */
export async function makeListingRepo(): Promise<{ base: string; root: string }> {
  const base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), "rlmkit-walk-listing-")));
  const root = path.join(base, "repo");
  const write = (relative: string, text?: string) => writeUnder(root, relative, text);
  for (const folder of ["src/app", "src/lib", "docs"]) for (let index = 0; index < 3; index++) await write(`${folder}/f${index}.py`, `x = ${index}\n`);
  await write(".gitignore", "*.log\nbuild/\n");
  await write("src/lib/.gitignore", "generated.py\n");
  await write("src/lib/generated.py");
  await write("src/app/run.log");
  await write("build/out.py");
  await write("config/.env", "SECRET=1\n");
  await fsp.mkdir(path.join(root, "empty"));
  await fsp.mkdir(path.join(root, ".git", "info"), { recursive: true });
  await fsp.mkdir(path.join(base, "outside"));
  await fsp.writeFile(path.join(base, "outside", "o.py"), "o\n");
  await fsp.symlink(path.join(root, "docs", "f0.py"), path.join(root, "src", "doc-link.py"));
  await fsp.symlink(path.join(base, "outside", "o.py"), path.join(root, "src", "outside-link.py"));
  return { base, root };
}

/** Short, so that the tests need not wait 2 s for their folders to settle; changes come after waiting longer. */
export const SETTLED_MS = 40;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
