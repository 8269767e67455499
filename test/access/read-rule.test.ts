import fc from "fast-check";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createNavTools, DEFAULT_SECRET_FILES, parseSecretFiles, ReadRule, ScriptedModel, type NavTools } from "../../src/index.ts";
import { createMcpServer } from "../../src/mcp/index.ts";
import { connectedClient } from "../support/mcp-client.ts";
import { js, makeRepo, runCli } from "../cli/run-cli.ts";

/** A repository with code, ignored output, git's own folder and the usual secret files. */
const FILES: Record<string, string> = {
  ".gitignore": "dist/\n*.log\n!keep.log\n",
  "src/app.ts": "export function start(): string {\n  return 'started';\n}\n",
  "src/.gitignore": "generated.ts\n",
  "src/generated.ts": "export const GENERATED = 'IGNORED_MARKER';\n",
  "dist/bundle.js": "console.log('IGNORED_MARKER');\n",
  "debug.log": "IGNORED_MARKER\n",
  "keep.log": "kept on purpose\n",
  ".git/config": "[remote \"origin\"]\n  url = https://SECRET_MARKER@example.com/repo.git\n",
  ".env": "API_TOKEN=SECRET_MARKER\n",
  ".env.production": "API_TOKEN=SECRET_MARKER\n",
  "config/server.pem": "-----BEGIN PRIVATE KEY-----\nSECRET_MARKER\n",
  "deploy/id_rsa": "SECRET_MARKER\n",
  ".npmrc": "//registry.npmjs.org/:_authToken=SECRET_MARKER\n",
  "home/.aws/credentials": "aws_secret_access_key = SECRET_MARKER\n",
  "home/.aws/config": "[default]\nregion = SECRET_MARKER\n",
  "notes.txt": "nothing secret here\n",
};

let repo: string;
beforeAll(() => {
  repo = makeRepo(FILES);
  mkdirSync(join(repo, "empty-dir"));
});

describe("ReadRule: one decision for what may be read", () => {
  test.each([
    { label: "source code", path: "src/app.ts", reason: undefined },
    { label: "a plain text file", path: "notes.txt", reason: undefined },
    { label: "a file re-included with !", path: "keep.log", reason: undefined },
    { label: "a folder", path: "src", reason: undefined },
    { label: ".git itself", path: ".git", reason: "git", message: "'.git' may not be read: it is in .git/, git's own data" },
    { label: "a file in .git", path: ".git/config", reason: "git" },
    // Names a file system may read as .git: another case (macOS and Windows ignore it), characters HFS+ ignores, Windows' short name.
    { label: "a file in .git written in capitals", path: ".GIT/config", reason: "git" },
    { label: "a file in .git written in mixed case", path: ".Git/config", reason: "git" },
    { label: ".git with a character HFS+ ignores", path: ".g\u200Cit/config", reason: "git" },
    { label: ".git ending in a byte order mark", path: ".git\uFEFF", reason: "git" },
    { label: ".git as its Windows short name", path: "GIT~1/config", reason: "git" },
    { label: ".git behind a character HFS+ ignores", path: "src/\u200C.git", reason: "git" },
    { label: ".git with many characters HFS+ ignores", path: `.git${"\u200C".repeat(13)}/config`, reason: "git" },
    { label: ".git ending in a character HFS+ ignores", path: ".git\u200C", reason: "git" },
    { label: ".git with characters from each range HFS+ ignores", path: ".\u202Ag\u206Fi\u200Ft/config", reason: "git" },
    { label: ".git with the dots Windows drops", path: ".git./config", reason: "git" },
    { label: ".git with the spaces Windows drops", path: ".git /config", reason: "git" },
    { label: "the short name with a dot Windows drops", path: "git~1./config", reason: "git" },
    { label: ".git named as its NTFS directory stream", path: ".git::$INDEX_ALLOCATION/config", reason: "git" },
    { label: "a name merely like .git", path: ".gitx/config", reason: undefined },
    { label: "a name with .git's letters out of order", path: "g.it", reason: undefined },
    { label: "a file named git~10", path: "git~10", reason: undefined },
    { label: "a file in an ignored folder", path: "dist/bundle.js", reason: "ignored", message: "'dist/bundle.js' may not be read: its folder 'dist' is ignored by git (rule 'dist/' in .gitignore)" },
    { label: "an ignored folder", path: "dist", reason: "ignored" },
    { label: "an ignored file, by extension", path: "debug.log", reason: "ignored", message: "'debug.log' may not be read: it is ignored by git (rule '*.log' in .gitignore)" },
    { label: "a file ignored by a nested .gitignore", path: "src/generated.ts", reason: "ignored", message: "'src/generated.ts' may not be read: it is ignored by git (rule 'generated.ts' in src/.gitignore)" },
    { label: ".env", path: ".env", reason: "secret", message: "'.env' may not be read: it matches the secret-file pattern '.env*'" },
    { label: ".env.production", path: ".env.production", reason: "secret" },
    { label: "a PEM key in a folder", path: "config/server.pem", reason: "secret", message: "'config/server.pem' may not be read: it matches the secret-file pattern '*.pem'" },
    { label: "an SSH key", path: "deploy/id_rsa", reason: "secret" },
    { label: ".npmrc", path: ".npmrc", reason: "secret" },
    // In any case: a file system that ignores case opens .env for .ENV.
    { label: ".env in capitals", path: ".ENV", reason: "secret" },
    { label: "an SSH key in capitals", path: "deploy/ID_RSA", reason: "secret" },
    { label: "a PEM key with its extension in capitals", path: "config/server.PEM", reason: "secret" },
    { label: "AWS credentials below the root", path: "home/.aws/credentials", reason: "secret" },
    { label: "a path given with ./ and a trailing slash", path: "./dist/", reason: "ignored" },
  ])("$label ($path): $reason", ({ path, reason, message }) => {
    const refusal = new ReadRule(repo).refusal(path);
    expect(refusal?.reason).toBe(reason);
    if (message) expect(refusal?.message.startsWith(message), refusal?.message).toBe(true);
  });

  test("refuses exactly the names a file system reads as .git, as git does (a reference written plainly)", () => {
    const ignorable = ["\u200C", "\u200F", "\u202A", "\u202E", "\u206A", "\u206F", "\uFEFF"];
    // Strip what HFS+ ignores, then what Windows drops (an NTFS stream after a colon, dots and spaces at the end), in any case.
    const readsAsGit = (name: string) => {
      const plain = [...name].filter((char) => !ignorable.includes(char)).join("").toLowerCase();
      const head = plain.split(":")[0]!.replace(/[. ]+$/, "");
      return head === ".git" || head === "git~1";
    };
    const rule = new ReadRule(repo, { secretFiles: [] });
    const piece = fc.constantFrom(".", "g", "G", "i", "I", "t", "T", "~", "1", "0", " ", ":", "x", "\u200B", ...ignorable);
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 9 }), fc.constantFrom("", "src/", "deep/er/"), (pieces, folder) => {
        const name = pieces.join("");
        if (name === "." || name === ".." || name.includes("/")) return;
        expect(rule.refusal(`${folder}${name}`)?.reason === "git", JSON.stringify(name)).toBe(readsAsGit(name));
      }),
      { numRuns: 20_000 },
    );
  });

  test("secretFiles replaces the default list; [] refuses no secret files (git and .gitignore still apply)", () => {
    const custom = new ReadRule(repo, { secretFiles: ["*.txt"] });
    expect(custom.refusal("notes.txt")?.reason).toBe("secret");
    expect(custom.refusal(".env")).toBeUndefined();
    const none = new ReadRule(repo, { secretFiles: [] });
    expect(none.refusal(".env")).toBeUndefined();
    expect(none.refusal("dist/bundle.js")?.reason).toBe("ignored");
    expect(none.refusal(".git/config")?.reason).toBe("git");
  });

  test.each([
    { text: ".env*, *.pem", expected: [".env*", "*.pem"] },
    { text: "none", expected: [] },
    { text: " NONE ", expected: [] },
    { text: "*.sqlite,,", expected: ["*.sqlite"] },
  ])("parseSecretFiles($text)", ({ text, expected }) => {
    expect(parseSecretFiles(text)).toEqual(expected);
  });

  test("the default list covers the usual secret files", () => {
    expect(DEFAULT_SECRET_FILES).toEqual(expect.arrayContaining([".env*", "*.pem", "*.key", "id_rsa*", ".npmrc", ".netrc"]));
  });
});

describe("the nav tools follow the rule, and say why", () => {
  let nav: NavTools;
  beforeAll(async () => {
    nav = await createNavTools(repo, { cacheDir: false });
  });
  afterAll(async () => nav?.close());

  test.each([
    { label: "nav_read of .env (not taken for a symbol name)", call: () => nav.read(".env"), refused: "secret", message: /^'\.env' may not be read: it matches the secret-file pattern '\.env\*'/ },
    { label: "nav_read of a line range of a key", call: () => nav.read("config/server.pem:1-2"), refused: "secret", message: /^'config\/server\.pem' may not be read/ },
    { label: "nav_read of .git/config", call: () => nav.read(".git/config"), refused: "git", message: /^'\.git\/config' may not be read: it is in \.git\// },
    { label: "nav_read of an ignored file", call: () => nav.read("dist/bundle.js"), refused: "ignored", message: /its folder 'dist' is ignored by git/ },
    { label: "nav_ls of an ignored folder", call: () => nav.ls("dist"), refused: "ignored", message: /^'dist' may not be read/ },
    { label: "nav_outline of a nested-ignored file", call: () => nav.outline("src/generated.ts"), refused: "ignored", message: /rule 'generated\.ts' in src\/\.gitignore/ },
    { label: "nav_read of an SSH key", call: () => nav.read("deploy/id_rsa"), refused: "secret", message: /'id_rsa\*'/ },
  ])("$label", async ({ call, refused, message }) => {
    const result = await call();
    expect(result).toMatchObject({ refused, error: expect.stringMatching(message) });
  });

  test("nav_search, nav_ls and nav_info never show refused files", async () => {
    expect(await nav.search("SECRET_MARKER")).toMatchObject({ matches: [] });
    expect(await nav.search("IGNORED_MARKER")).toMatchObject({ matches: [] });
    const root = await nav.ls("");
    expect(JSON.stringify(root)).not.toMatch(/\.env|\.npmrc|dist|debug\.log/);
    expect((await nav.info()).files).toBe(5); // .gitignore, src/app.ts, src/.gitignore, keep.log, notes.txt
    expect(await nav.read("src/app.ts:1")).toMatchObject({ text: "export function start(): string {" });
  });

  test("with secretFiles: [] the secret files are tools' to read, ignored files still are not", async () => {
    const open = await createNavTools(repo, { cacheDir: false, secretFiles: [] });
    try {
      expect(await open.read(".env")).toMatchObject({ text: "API_TOKEN=SECRET_MARKER" });
      expect(await open.read("dist/bundle.js")).toMatchObject({ refused: "ignored" });
    } finally {
      await open.close();
    }
  });
});

describe("MCP's rlm_query path follows the rule", () => {
  let client: Client;
  let model: ScriptedModel;
  beforeAll(async () => {
    model = new ScriptedModel(Array.from({ length: 4 }, () => js("FINAL(context.length)")));
    const server = createMcpServer({ repo, openRepository: (directory, options) => createNavTools(directory, { cacheDir: false, ...options }), createModel: () => model });
    client = await connectedClient(server, "read-rule-test");
  });
  afterAll(async () => client?.close());

  test.each([
    { path: ".env", message: /^rlm_query: '\.env' may not be read: it matches the secret-file pattern '\.env\*'/ },
    { path: ".git/config", message: /^rlm_query: '\.git\/config' may not be read: it is in \.git\// },
    { path: "dist/bundle.js", message: /^rlm_query: 'dist\/bundle\.js' may not be read: its folder 'dist' is ignored by git/ },
    { path: "dist", message: /^rlm_query: 'dist' may not be read/ },
    { path: "home/.aws/config", message: /secret-file pattern '\*\*\/\.aws\/\*\*'/ },
  ])("path: $path is refused, and no model is asked", async ({ path, message }) => {
    const before = model.requests.length;
    const result = (await client.callTool({ name: "rlm_query", arguments: { question: "What is in it?", path } })) as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(message);
    expect(model.requests.length).toBe(before);
  });

  test("a readable file is still the context", async () => {
    const result = (await client.callTool({ name: "rlm_query", arguments: { question: "How long?", path: "notes.txt" } })) as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBeFalsy();
    expect(result.content[0].text).toBe(String(FILES["notes.txt"].length));
  });
});

describe("the command line follows the rule", () => {
  test.each([
    { label: "nav read .env", args: ["nav", "read", ".env"], code: 1, stderr: /^rlmkit: '\.env' may not be read: it matches the secret-file pattern/ },
    { label: "nav read .env with --secret-files none", args: ["nav", "read", ".env", "--secret-files", "none"], code: 0, stdout: /API_TOKEN=SECRET_MARKER/ },
    { label: "nav read .env with RLMKIT_SECRET_FILES=none", args: ["nav", "read", ".env"], env: { RLMKIT_SECRET_FILES: "none" }, code: 0, stdout: /API_TOKEN=SECRET_MARKER/ },
    { label: "ask --context .env inside the repository", args: ["ask", "q", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--context", ".env"], code: 1, stderr: /^rlmkit: --context \.env: '\.env' may not be read: it matches the secret-file pattern '\.env\*'.*pipe it in: --context - < \.env/ },
    { label: "ask --context of a file in .git", args: ["ask", "q", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--context", ".git/config"], code: 1, stderr: /^rlmkit: --context \.git\/config: '\.git\/config' may not be read: it is in \.git\// },
    { label: "ask --context of an ignored file, with --repo", args: ["ask", "q", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--repo", ".", "--context", "debug.log"], code: 1, stderr: /^rlmkit: --context debug\.log: 'debug\.log' may not be read: it is ignored by git/ },
  ] as { label: string; args: string[]; env?: Record<string, string>; code: number; stdout?: RegExp; stderr?: RegExp }[])("$label", async ({ args, env, code, stdout, stderr }) => {
    const run = await runCli(args, { cwd: repo, ...(env ? { env } : {}) });
    expect(run.code, run.stderr).toBe(code);
    if (stdout) expect(run.stdout).toMatch(stdout);
    if (stderr) expect(run.stderr).toMatch(stderr);
    expect(run.stdout).not.toMatch(code === 1 ? /SECRET_MARKER|IGNORED_MARKER/ : /IGNORED_MARKER/);
  });
});
