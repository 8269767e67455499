import { homedir, tmpdir } from "node:os";
import { describe, expect, test } from "vitest";
import { redactHostPaths } from "../../sandbox/index.ts";

describe("redactHostPaths", () => {
  test.each([
    { label: "a file URL", message: `failed at ${import.meta.url}:3:4`, expected: "failed at <url>" },
    { label: "the working directory", message: `cannot read ${process.cwd()}/data/input.txt`, expected: "cannot read <host path>" },
    { label: "the home directory", message: `no config in ${homedir()}/.config/tool/settings.json`, expected: "no config in <host path>" },
    { label: "the temporary directory", message: `wrote ${tmpdir()}/x`, expected: "wrote <host path>" },
    { label: "another absolute path", message: "ENOENT: open '/var/lib/service/state.db'", expected: "ENOENT: open '<host path>'" },
    // A path of one folder used to pass: it would tell the guest that /secret exists.
    { label: "a one-folder path", message: "ENOENT: no such file or directory, open '/secret'", expected: "ENOENT: no such file or directory, open '<host path>'" },
    { label: "a path with a line number", message: "see /etc/passwd:3", expected: "see <host path>:3" },
    { label: "a Windows path", message: "C:\\Users\\me\\file.txt is missing", expected: "<host path> is missing" },
    { label: "a model server's URL", message: "Connection error: connect ECONNREFUSED http://127.0.0.1:11434/v1/chat/completions", expected: "Connection error: connect ECONNREFUSED <url>" },
    { label: "a URL with credentials", message: "401 from https://user:s3cret@api.example.com/v1?key=sk-123", expected: "401 from <url>" },
    { label: "paths in brackets and quotes", message: "path (/tmp/a/b) and '/x'", expected: "path (<host path>) and '<host path>'" },
  ])("replaces $label", ({ message, expected }) => {
    expect(redactHostPaths(message)).toBe(expected);
  });

  test.each([
    { label: "a message without paths", message: "x is not defined" },
    { label: "relative paths and slashes in prose", message: "src/tool.ts, and/or 1/2, n/a, a / b" },
    { label: "markup", message: "expected </div>" },
  ])("keeps $label as it is", ({ message }) => {
    expect(redactHostPaths(message)).toBe(message);
  });

  test("treats every root alike, so the result cannot tell the working, home or any other folder apart", () => {
    const guesses = [process.cwd(), homedir(), tmpdir(), "/nonexistent-folder", "/usr/lib/node_modules/rlmkit"];
    const redacted = guesses.map((guess) => redactHostPaths(`open '${guess}/file.txt'`));
    expect(new Set(redacted)).toEqual(new Set(["open '<host path>'"]));
  });
});
