import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startOpenAIServer, type OpenAITestServer } from "../support/openai-server.ts";

const checkout = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const readme = readFileSync(join(checkout, "README.md"), "utf8");

/** The README's code block whose first line is `// NAME`, verbatim. */
function readmeExample(name: string): string {
  const block = readme.split(/^```js\n/m).slice(1).find((candidate) => candidate.startsWith(`// ${name}\n`));
  if (!block) throw new Error(`README.md has no \`\`\`js block starting with // ${name}`);
  return block.slice(0, block.search(/^```$/m));
}

/** npm, run the way this test run's own npm was (its CLI script under this Node), or `npm` from the PATH. */
function npm(args: string[], cwd: string): void {
  const cli = process.env.npm_execpath;
  const [command, prefix] = cli && cli.endsWith(".js") ? [process.execPath, [cli]] : ["npm", []];
  execFileSync(command, [...prefix, ...args], { cwd, stdio: "pipe", env: { ...process.env, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" } });
}

/** A Node on the PATH (or /usr/bin) older than 24, to check the error an old Node gets. */
function olderNode(): string | undefined {
  const candidates = [...(process.env.PATH ?? "").split(delimiter).map((folder) => join(folder, "node")), "/usr/bin/node", "/usr/local/bin/node"];
  for (const candidate of new Set(candidates)) {
    if (!existsSync(candidate)) continue;
    const version = spawnSync(candidate, ["--version"], { encoding: "utf8" }).stdout?.trim() ?? "";
    if (/^v\d+/.test(version) && Number(version.slice(1).split(".")[0]) < 24) return candidate;
  }
  return undefined;
}

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command in the project, asynchronously (the model server answers in this process), killed after 30 s. */
function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, timeout: 30_000, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), XDG_CACHE_HOME: join(cwd, ".cache"), ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (status, signal) => (signal ? reject(new Error(`${command} ${args.join(" ")} was killed (${signal}); output: ${stdout}${stderr}`)) : resolve({ status, stdout, stderr })));
  });
}

describe("a fresh consumer project (npm init -y, npm install <checkout>)", () => {
  let project: string;
  let server: OpenAITestServer;

  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), "rlmkit-consumer-"));
    npm(["init", "-y"], project);
    // A folder install is a link to the checkout: fast, and offline.
    npm(["install", "--offline", "--no-audit", "--no-fund", checkout], project);
    server = await startOpenAIServer([
      '```js\nconst errors = context.split("\\n").filter((line) => line.includes("ERROR"))\nconst user = lookup_user(7)\nFINAL({ count: errors.length, first: errors[0], user: user.name })\n```',
    ]);
  });
  afterAll(async () => {
    await server?.close();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  test("is CommonJS, as npm init -y makes it, with rlmkit installed", () => {
    const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
    expect(pkg.type ?? "commonjs").toBe("commonjs");
    expect(Object.keys(pkg.dependencies)).toEqual(["rlmkit"]);
  });

  test("README's example.mjs runs verbatim: a session against the model server, then the nav tools, and the process exits", async () => {
    writeFileSync(join(project, "example.mjs"), readmeExample("example.mjs"));
    writeFileSync(join(project, "app.log"), "INFO start\nERROR disk full\nINFO retry\nERROR disk still full\n");
    const result = await run(process.execPath, ["example.mjs"], project, { OPENAI_BASE_URL: server.url });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^final \{ count: 2, first: 'ERROR disk full', user: 'Ada' \}/);
    expect(result.stdout).toContain("path: 'app.log'");
    expect(server.requests.at(-1)?.body.model).toBe("qwen2.5-coder:7b");
    expect(readFileSync(join(project, "trace.jsonl"), "utf8")).toContain('"type":"session_end"');
  });

  test("README's example.cjs runs verbatim with require()", async () => {
    writeFileSync(join(project, "example.cjs"), readmeExample("example.cjs"));
    const result = await run(process.execPath, ["example.cjs"], project);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("final 3\n");
  });

  test("require(\"rlmkit\") from a CommonJS file gives the same API as import", async () => {
    writeFileSync(join(project, "keys.cjs"), 'console.log(JSON.stringify(Object.keys(require("rlmkit")).sort()))');
    writeFileSync(join(project, "keys.mjs"), 'console.log(JSON.stringify(Object.keys(await import("rlmkit")).sort()))');
    const required = await run(process.execPath, ["keys.cjs"], project);
    const imported = await run(process.execPath, ["keys.mjs"], project);
    expect(required.stderr).toBe("");
    expect(JSON.parse(required.stdout)).toEqual(JSON.parse(imported.stdout));
    expect(JSON.parse(required.stdout)).toEqual(expect.arrayContaining(["runSession", "createNavTools", "ScriptedModel", "UnsupportedNodeError"]));
  });

  const older = olderNode();
  test.skipIf(!older)(`on an older Node (${older ?? "none found on the PATH or in /usr/bin: skipped"}), import and require fail with one clear error before isolated-vm loads`, async () => {
    writeFileSync(join(project, "old.mjs"), 'try { await import("rlmkit"); } catch (error) { console.log(error.name + ": " + error.message); }');
    writeFileSync(join(project, "old.cjs"), 'try { require("rlmkit"); } catch (error) { console.log(error.name + ": " + error.message); }');
    for (const file of ["old.mjs", "old.cjs"]) {
      const result = await run(older!, [file], project);
      expect(result.stdout, file).toMatch(/^UnsupportedNodeError: rlmkit needs Node 24 or newer, and this is Node \d+\./);
      expect(result.stdout, file).toContain("npm install -D node@24");
      expect(result.stdout + result.stderr, file).not.toMatch(/No native build/);
    }
  });
});
