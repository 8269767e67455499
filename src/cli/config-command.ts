import type { Command } from "commander";
import { configRows, formatConfigTable } from "../config/format-config.ts";
import type { CliIo } from "./cli-io.ts";
import { EXIT_OK } from "./exit-codes.ts";
import { addModelOptions, configFromOptions } from "./model-options.ts";
import { resolveRepository } from "./repository.ts";

/** Registers `rlmkit config`: the effective configuration, where each value came from, secrets masked. */
export function registerConfigCommand(program: Command, io: CliIo, done: (code: number) => void): void {
  const command = program
    .command("config")
    .description("print the effective configuration and where each value came from (secrets masked)")
    .option("--repo <dir>", "repository whose rlmkit.config.json is read")
    .option("--json", "print as JSON");
  addModelOptions(command, { trace: true, validation: true, sessionTools: true });
  command.action((options: Record<string, unknown>) => {
    const repo = typeof options.repo === "string" ? resolveRepository(options.repo, io.cwd) : io.cwd;
    const resolved = configFromOptions(options, io, repo);
    io.stdout.write(options.json ? `${JSON.stringify({ file: resolved.file ?? null, values: configRows(resolved) }, null, 2)}\n` : `${formatConfigTable(resolved)}\n`);
    done(EXIT_OK);
  });
}
