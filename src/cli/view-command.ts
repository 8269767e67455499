import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import { CliError } from "./cli-error.ts";
import type { CliIo } from "./cli-io.ts";
import { EXIT_OK } from "./exit-codes.ts";

/** Registers `rlmkit view TRACE.jsonl [-o out.html]`. */
export function registerViewCommand(program: Command, io: CliIo, done: (code: number) => void): void {
  program
    .command("view")
    .description("render a JSONL trace as one self-contained HTML page (opens offline)")
    .argument("<trace>", "a JSONL trace written by `ask --trace` or runSession({ tracePath })")
    .option("-o, --output <file>", "where to write the page (default: the trace's name with .html)")
    .action(async (trace: string, options: { output?: string }) => {
      const [{ readTrace }, { renderTraceHtml }] = await Promise.all([import("../view/read-trace.ts"), import("../view/render-trace-html.ts")]);
      const input = resolve(io.cwd, trace);
      let parsed;
      try {
        parsed = readTrace(input);
      } catch (error) {
        throw new CliError((error as Error).message, { cause: error });
      }
      const output = resolve(io.cwd, options.output ?? `${input.replace(/\.jsonl?$/i, "")}.html`);
      mkdirSync(dirname(output), { recursive: true });
      writeFileSync(output, renderTraceHtml(parsed.events, { problems: parsed.problems }));
      io.stdout.write(`${output}\n`);
      if (parsed.problems.length) io.stderr.write(`rlmkit: skipped ${parsed.problems.length} unreadable line${parsed.problems.length === 1 ? "" : "s"} (${parsed.problems[0]}${parsed.problems.length > 1 ? ", …" : ""})\n`);
      done(EXIT_OK);
    });
}
