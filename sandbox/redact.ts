import { homedir, tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { dirname } from "node:path";

const packageRoot = dirname(dirname(fileURLToPath(import.meta.url)));

/** Characters that end a path or URL in a message: white space, quotes and brackets. */
const PATH_CHARS = String.raw`[^\s'"\x60<>()[\]{}]`;
const URL_PATTERN = new RegExp(String.raw`\b[a-zA-Z][a-zA-Z0-9+.-]*:\/\/${PATH_CHARS}*`, "g");
const WINDOWS_PATH = new RegExp(String.raw`(^|[^\w.\/\\:~-])[a-zA-Z]:\\${PATH_CHARS}*`, "g");
const POSIX_PATH = /(^|[^\w.\/\\:~<>-])(?:~?\/[\w.@%+~,=-]+)+\/?/g;

/**
 * Removes host paths and URLs from a message the host wrote (a tool's or a model
 * client's error, a failed sub-call) before guest code or the model sees it:
 * every URL (`file://…`, a model server's address, one with credentials) becomes
 * `<url>`, and every absolute path (`/secret`, `/home/me/app/data.txt`,
 * `C:\Users\me`, also the working, home, temporary and install folders, even
 * when they contain spaces) becomes `<host path>`. Every root is treated alike,
 * so the result says nothing about which folders exist or which is which.
 *
 * Text the guest wrote itself (the message of an error it threw) must not pass
 * through here: it goes back verbatim, so redaction cannot be used to test
 * guesses about host folders.
 *
 * @example
 * redactHostPaths("ENOENT: no such file or directory, open '/srv/app/data.txt'");
 * // "ENOENT: no such file or directory, open '<host path>'"
 */
export function redactHostPaths(message: string): string {
  let text = message.replace(URL_PATTERN, "<url>");
  const roots = [process.cwd(), packageRoot, homedir(), tmpdir()].filter((root) => root.length > 1).sort((a, b) => b.length - a.length);
  for (const root of roots) {
    // The root itself, or the root and what follows a separator; not "/work" in "/workshop".
    text = text.replace(new RegExp(`${escapeRegExp(root)}(?:[\\/\\\\]${PATH_CHARS}*|(?![\\w.@%+~,=-]))`, "g"), "<host path>");
  }
  return text.replace(WINDOWS_PATH, "$1<host path>").replace(POSIX_PATH, "$1<host path>");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
