import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { exitWithin } from "../support/child-exit.ts";
import { FIXTURE_SOURCE } from "./fixture-repo.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

describe("a script that uses the nav tools and never calls close() exits by itself (a real child process)", () => {
  test.each([
    { label: "a text search (starts the search worker)", calls: `await nav.search("function")` },
    { label: "a regex search and a symbol search", calls: `await nav.search("ret.rn", { regex: true }); await nav.search("main", { symbols: true })` },
    { label: "a search, a read and an outline", calls: `await nav.search("class"); await nav.read("lib/util.js"); await nav.info()` },
    // The second waits behind the workers' background load, which alone would not keep the process alive.
    { label: "two searches in a row", calls: `await nav.search("function"); await nav.search("class"); await nav.search("ret.rn", { regex: true })` },
  ])("after $label", async ({ calls }) => {
    const script = `
      import { createNavTools } from "rlmkit";
      const nav = await createNavTools(${JSON.stringify(FIXTURE_SOURCE)}, { cacheDir: false });
      ${calls};
      console.log("done");
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    // The script itself takes well under a second; ten leave room for a loaded machine.
    const exit = await exitWithin(child, 10_000, "the nav script").catch((error: Error) => error);
    expect(exit, output).not.toBeInstanceOf(Error);
    expect(exit).toMatchObject({ code: 0 });
    expect(output.trim()).toBe("done");
  });
});
