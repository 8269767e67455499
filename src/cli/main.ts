import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { ConfigError } from "../config/config-error.ts";
import { CliError } from "./cli-error.ts";
import { processIo, type CliIo } from "./cli-io.ts";
import { EXIT_ERROR, EXIT_NOT_ANSWERED, EXIT_NOT_REPRODUCED, EXIT_OK } from "./exit-codes.ts";

type Register = (program: Command, io: CliIo, done: (code: number) => void, version: string) => void;

/** The commands, in the order help lists them; each module loads only when its command is named (or for help). */
const COMMANDS: Record<string, () => Promise<Register>> = {
  ask: async () => (await import("./ask-command.ts")).registerAskCommand,
  nav: async () => (await import("./nav-command.ts")).registerNavCommand,
  replay: async () => (await import("./replay-command.ts")).registerReplayCommand,
  view: async () => (await import("./view-command.ts")).registerViewCommand,
  config: async () => (await import("./config-command.ts")).registerConfigCommand,
  mcp: async () => {
    const { registerMcpCommand } = await import("./mcp-command.ts");
    return (program, io, done, version) => registerMcpCommand(program, io, version, done);
  },
};

/** What {@link main} resolves with: an exit code, or `"serving"` when a server keeps the process alive. */
export type MainOutcome = number | "serving";

/** The package version, read from package.json. */
export function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
  } catch {
    try {
      return (JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string }).version;
    } catch {
      return "0.0.0";
    }
  }
}

/**
 * Runs the `rlmkit` command line with the given arguments (without `node` and
 * the script) and resolves with the exit code. Errors are printed as one line
 * prefixed `rlmkit:`; set `RLMKIT_DEBUG=1` to also print the stack.
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<MainOutcome> {
  let exitCode: MainOutcome | undefined;
  const done = (code: number) => {
    exitCode = code;
  };
  const version = packageVersion();
  const program = new Command("rlmkit")
    .description("Answer questions about large inputs and repositories with a model that writes JavaScript in a sandbox.")
    .version(version)
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text), outputError: (text, write) => write(text.replace(/^error:/, "rlmkit: error:")) })
    .showSuggestionAfterError()
    .addHelpText(
      "after",
      `\nExit codes: ${EXIT_OK} answered / ok, ${EXIT_ERROR} error, ${EXIT_NOT_ANSWERED} not answered (a limit stopped the session), ${EXIT_NOT_REPRODUCED} replay did not reproduce, 130 interrupted (Ctrl-C).\nConfiguration: defaults < rlmkit.config.json (or --config) < environment < flags; see \`rlmkit config\`.`,
    );
  // A named command needs only its own definition; help, a typo's suggestions and no command need them all.
  const named = argv[0] !== undefined && Object.hasOwn(COMMANDS, argv[0]) ? [argv[0]] : Object.keys(COMMANDS);
  const registers = await Promise.all(named.map((name) => COMMANDS[name]!()));
  for (const register of registers) register(program, io, done, version);
  for (const command of program.commands) command.exitOverride().showSuggestionAfterError();

  try {
    await program.parseAsync([...argv], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help") return EXIT_OK;
      if (error.code === "commander.executeSubCommandAsync") return EXIT_ERROR;
      return error.exitCode === 0 ? EXIT_OK : EXIT_ERROR;
    }
    report(error, io);
    return error instanceof CliError ? error.exitCode : EXIT_ERROR;
  }
  if (exitCode === undefined) {
    if (program.args.length === 0 && argv.length === 0) {
      program.outputHelp();
      return EXIT_ERROR;
    }
    return "serving";
  }
  return exitCode;
}

function report(error: unknown, io: CliIo): void {
  if (error instanceof ConfigError && error.problems.length === 1) {
    io.stderr.write(`rlmkit: invalid configuration: ${error.message}\n`);
    return;
  }
  if (error instanceof ConfigError) {
    io.stderr.write(`rlmkit: invalid configuration\n${error.message.split("\n").map((line) => `  ${line}`).join("\n")}\n`);
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`rlmkit: ${message.replace(/\s*\n\s*/g, " ")}\n`);
  if (io.env.RLMKIT_DEBUG && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
}
