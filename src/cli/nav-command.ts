import type { Command } from "commander";
import { CliError } from "./cli-error.ts";
import type { CliIo } from "./cli-io.ts";
import { EXIT_ERROR, EXIT_OK } from "./exit-codes.ts";
import { closeNavTools, loadNavTools, NAV_TOOL_NAMES } from "./nav-tools.ts";
import { resolveRepository } from "./repository.ts";
import { resolveConfig } from "../config/resolve-config.ts";

/**
 * Registers `rlmkit nav info|ls|outline|read|search|refs [args...]`: the navigation
 * tools for a person. Arguments are positional, as the model passes them; a
 * string parameter takes the text as it is, and for other parameters an argument that parses as JSON (a number, `true`, an object like
 * `'{"glob":"src/**"}'`) is passed as that value, anything else as a string.
 */
export function registerNavCommand(program: Command, io: CliIo, done: (code: number) => void): void {
  program
    .command("nav")
    .description(`run a navigation tool without a model: ${NAV_TOOL_NAMES.map((name) => name.slice(4)).join(", ")}`)
    .argument("<tool>", NAV_TOOL_NAMES.map((name) => name.slice(4)).join("|"))
    .argument("[args...]", "positional arguments, as the model passes them (JSON values or plain strings)")
    .option("--repo <dir>", "repository to navigate", ".")
    .option("--json", "print the tool's result as JSON")
    .option("--secret-files <globs>", "files never shown besides .git/ and ignored ones: comma-separated globs, or none (RLMKIT_SECRET_FILES)")
    .addHelpText("after", "\nExamples:\n  rlmkit nav info --repo .\n  rlmkit nav search runSession --repo .\n  rlmkit nav outline src/index.ts\n  rlmkit nav read src/index.ts:1-20\n  rlmkit nav refs RetryPolicy.next")
    .action(async (name: string, args: string[], options: { repo: string; json?: boolean; secretFiles?: string }) => {
      done(await nav(name, args, options, io));
    });
}

async function nav(name: string, rawArgs: readonly string[], options: { repo: string; json?: boolean; secretFiles?: string }, io: CliIo): Promise<number> {
  const toolName = name.startsWith("nav_") ? name : `nav_${name}`;
  if (!(NAV_TOOL_NAMES as readonly string[]).includes(toolName)) {
    throw new CliError(`unknown nav tool '${name}'; use one of: ${NAV_TOOL_NAMES.map((tool) => tool.slice(4)).join(", ")}`);
  }
  const repo = resolveRepository(options.repo, io.cwd);
  // Only the read rule comes from the configuration (file, environment, flag): nav needs no model.
  const { secretFiles } = resolveConfig({ flags: { secretFiles: options.secretFiles }, env: io.env, searchDir: repo }).values;
  const tools = await loadNavTools(repo, secretFiles);
  try {
    return await runNavTool(tools, toolName, rawArgs, options, io);
  } finally {
    // After the answer is printed: closing saves the index cache and the walk's listing.
    await closeNavTools();
  }
}

// Checks the arguments, runs the tool and prints its answer; the exit code.
async function runNavTool(tools: Awaited<ReturnType<typeof loadNavTools>>, toolName: string, rawArgs: readonly string[], options: { json?: boolean }, io: CliIo): Promise<number> {
  // Loaded here, not at start-up: argument checking brings in ajv.
  const [{ checkToolArguments, toolSignature }, { formatNavResult }, { isNavError }] = await Promise.all([import("../tools/tool-arguments.ts"), import("./format-value.ts"), import("../nav/nav-results.ts")]);
  const tool = tools.find((candidate) => candidate.name === toolName);
  if (!tool) throw new CliError(`this build has no ${toolName} tool`);
  const schemas = Object.values(tool.parameters.properties);
  const checked = checkToolArguments(tool, rawArgs.map((text, index) => (schemas[index]?.type === "string" ? text : parseArgument(text))));
  if (!checked.ok) throw new CliError(checked.message);
  let result: unknown;
  try {
    result = await tool.handler(checked.args, { sessionId: "cli", signal: new AbortController().signal });
  } catch (error) {
    io.stderr.write(`rlmkit: ${toolName} failed: ${(error as Error)?.message ?? error}. Usage: ${toolSignature(tool)}\n`);
    return EXIT_ERROR;
  }
  if (isNavError(result) && !options.json) {
    const hints = [...(result.didYouMean ?? []).map((name) => `did you mean ${name}?`), ...(result.candidates ?? []).map((name) => `candidate: ${name}`)];
    io.stderr.write(`rlmkit: ${result.error}${hints.length ? `\n  ${hints.join("\n  ")}` : ""}\n`);
    return EXIT_ERROR;
  }
  io.stdout.write(`${options.json ? JSON.stringify(result, null, 2) : formatNavResult(toolName, result)}\n`);
  return isNavError(result) ? EXIT_ERROR : EXIT_OK;
}

/** A command-line argument as a JSON value when it parses as one (other than a bare word), else the string itself. */
export function parseArgument(text: string): unknown {
  if (/^\s*([[{"]|-?\d|true$|false$|null$)/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
