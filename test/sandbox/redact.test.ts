import { homedir } from "node:os";
import { describe, expect, test } from "vitest";
import { redactHostPaths } from "../../sandbox/index.ts";

describe("redactHostPaths", () => {
  test.each([
    { label: "file URL", message: `failed at ${import.meta.url}:3:4`, gone: "file://" },
    { label: "working directory", message: `cannot read ${process.cwd()}/data/input.txt`, gone: process.cwd() },
    { label: "home directory", message: `no config in ${homedir()}/.config/tool/settings.json`, gone: homedir() },
    { label: "other absolute path", message: "ENOENT: open '/var/lib/service/state.db'", gone: "/var/lib/service" },
  ])("removes a $label", ({ message, gone }) => {
    expect(redactHostPaths(message)).not.toContain(gone);
  });

  test("keeps messages without paths as they are", () => {
    expect(redactHostPaths("x is not defined")).toBe("x is not defined");
  });

  test("keeps the path relative to the working directory readable", () => {
    expect(redactHostPaths(`bad file ${process.cwd()}/src/tool.ts`)).toBe("bad file src/tool.ts");
  });
});
