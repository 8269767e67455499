import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { makeRepo, runCli } from "./run-cli.ts";

describe("rlmkit config", () => {
  test("layers defaults < rlmkit.config.json < environment < flags and names each source", async () => {
    const repo = makeRepo({ "rlmkit.config.json": JSON.stringify({ model: "file-model", maxIterations: 7, baseUrl: "http://file.example/v1", budgetUsd: 0.5 }) });
    const run = await runCli(["config", "--repo", repo, "--json", "--max-iterations", "9"], { env: { OPENAI_BASE_URL: "http://env.example/v1", OPENAI_API_KEY: "sk-secret-value-1234" } });
    expect(run.code).toBe(0);
    const { file, values } = JSON.parse(run.stdout);
    expect(file).toBe(join(repo, "rlmkit.config.json"));
    const byKey = Object.fromEntries(values.map((row: { key: string }) => [row.key, row]));
    expect(byKey.model).toMatchObject({ value: "file-model", source: `file ${file}` });
    expect(byKey.maxIterations).toMatchObject({ value: 9, source: "flag --max-iterations" });
    expect(byKey.baseUrl).toMatchObject({ value: "http://env.example/v1", source: "env OPENAI_BASE_URL" });
    expect(byKey.budgetUsd).toMatchObject({ value: 0.5, source: `file ${file}` });
    expect(byKey.stream).toMatchObject({ value: false, source: "default" });
    expect(byKey.subModel).toMatchObject({ source: "unset" });
    expect(byKey.apiKey).toMatchObject({ value: "sk-…1234", source: "env OPENAI_API_KEY" });
    expect(run.stdout).not.toContain("sk-secret-value");
  });

  test("prints an aligned table for a person, secrets masked", async () => {
    const run = await runCli(["config", "--model", "flag-model", "--api-key", "sk-another-secret-9876"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^model\s+flag-model\s+flag --model$/m);
    expect(run.stdout).toMatch(/^apiKey\s+sk-…9876\s+flag --api-key$/m);
    expect(run.stdout).toMatch(/^maxIterations\s+20\s+default$/m);
    expect(run.stdout).toMatch(/^maxModelCalls\s+500\s+default$/m);
    expect(run.stdout).toMatch(/^subModel\s+-\s+unset: model for sub-calls \(default: the main model\)$/m);
    expect(run.stdout).not.toContain("another-secret");
  });

  test.each([
    { label: "a typo in a key, with a suggestion", config: { modle: "x" }, message: "unknown key 'modle' (did you mean 'model'?)" },
    { label: "a wrong type", config: { maxIterations: "ten" }, message: "'maxIterations' must be a positive integer, got the string \"ten\"" },
    { label: "a non-URL base URL", config: { baseUrl: "localhost:8000" }, message: "'baseUrl' must be an http(s) URL string" },
    { label: "not an object", config: ["model"], message: "must be a JSON object" },
  ])("rejects a config file with $label (exit 1, names the file)", async ({ config, message }) => {
    const repo = makeRepo({ "rlmkit.config.json": JSON.stringify(config) });
    for (const args of [["config", "--repo", repo], ["ask", "q", "--repo", repo]]) {
      const run = await runCli(args);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("rlmkit: invalid configuration");
      expect(run.stderr).toContain(`${join(repo, "rlmkit.config.json")}: ${message}`);
      expect(run.stderr).not.toMatch(/^\s+at /m);
    }
  });

  test("rejects a config file that is not JSON, and a missing --config file", async () => {
    const repo = makeRepo({ "broken.json": "{ model: " });
    const broken = await runCli(["config", "--config", join(repo, "broken.json")]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/broken\.json: is not valid JSON/);
    const missing = await runCli(["config", "--config", join(repo, "nope.json")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("nope.json: no such file");
  });

  test("rejects a bad environment value, naming the variable", async () => {
    const run = await runCli(["config"], { env: { RLMKIT_MAX_ITERATIONS: "lots" } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('environment variable RLMKIT_MAX_ITERATIONS: must be a positive integer, got "lots"');
  });

  test("--config wins over the repository's file", async () => {
    const repo = makeRepo({ "rlmkit.config.json": JSON.stringify({ model: "repo-model" }), "other.json": JSON.stringify({ model: "other-model" }) });
    writeFileSync(join(repo, "other.json"), JSON.stringify({ model: "other-model" }));
    const run = await runCli(["config", "--repo", repo, "--config", join(repo, "other.json"), "--json"]);
    expect(JSON.parse(run.stdout).values[0]).toMatchObject({ key: "model", value: "other-model" });
  });
});
