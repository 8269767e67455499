import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { CliError } from "./cli-error.ts";
import { readAll, type CliIo } from "./cli-io.ts";

/** Reads the `--context` input of `ask` and `replay`: a file relative to the working directory, or `-` for stdin. */
export async function readContext(file: string, io: CliIo): Promise<string> {
  if (file === "-") return readAll(io.stdin);
  try {
    return readFileSync(resolve(io.cwd, file), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(code === "ENOENT" ? `context file not found: ${file}` : `cannot read context file ${file} (${code ?? (error as Error).message})`, { cause: error });
  }
}
