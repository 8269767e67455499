import { homedir } from "node:os";
import { fileURLToPath } from "node:url";
import { dirname, sep } from "node:path";

const packageRoot = dirname(dirname(fileURLToPath(import.meta.url)));

/**
 * Removes host paths from a message that is about to be shown to guest code or
 * the model: file URLs, the working directory, the home directory and this
 * package's own location are replaced by short placeholders.
 */
export function redactHostPaths(message: string): string {
  let text = message.replace(/file:\/\/\/[^\s)'"]+/g, "<host file>");
  const roots = [process.cwd(), packageRoot, homedir()]
    .filter((root) => root.length > 1)
    .sort((a, b) => b.length - a.length);
  for (const root of roots) {
    text = text.split(root + sep).join("").split(root).join(".");
  }
  // Any remaining absolute path with several components.
  return text.replace(/(^|[\s('"])\/(?:[\w.-]+\/){2,}[\w.-]*/g, "$1<host path>");
}
