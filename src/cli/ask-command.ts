import { resolve } from "node:path";
import type { Command } from "commander";
import type { SessionResult } from "../session/session-result.ts";
import type { CliIo } from "./cli-io.ts";
import { exitCodeForStatus } from "./exit-codes.ts";
import { addModelOptions, configFromOptions } from "./model-options.ts";
import { closeNavTools, openNav } from "./nav-tools.ts";
import { ProgressReporter } from "./progress.ts";
import { readContext } from "./read-context.ts";
import { resolveRepository } from "./repository.ts";
import { displayValue } from "../util/display-value.ts";

/** The JSON `ask --json` prints (and `ask` prints when stdout is not a terminal). */
export interface AskResultJson {
  readonly status: SessionResult["status"];
  readonly answer?: SessionResult["answer"];
  readonly usage: SessionResult["usage"];
  readonly sessionId: string;
  readonly iterations: number;
  readonly durationMs: number;
  readonly error?: string;
  readonly trace?: string;
}

/** Registers `rlmkit ask QUESTION`. */
export function registerAskCommand(program: Command, io: CliIo, done: (code: number) => void): void {
  const command = program
    .command("ask")
    .description("answer a question about a repository or an input, with a model writing code in a sandbox")
    .argument("<question>", "what to answer")
    .option("--repo <dir>", "repository the navigation tools read")
    .option("--context <file>", "input exposed to the model as `context` (a file, or - for stdin)")
    .option("--json", "print only the result as JSON (the default when stdout is not a terminal)");
  addModelOptions(command, { trace: true });
  command.action(async (question: string, options: Record<string, unknown>) => {
    done(await ask(question, options, io));
  });
}

async function ask(question: string, options: Record<string, unknown>, io: CliIo): Promise<number> {
  const repo = typeof options.repo === "string" ? resolveRepository(options.repo, io.cwd) : undefined;
  const { values: config } = configFromOptions(options, io, repo ?? io.cwd);
  const context = typeof options.context === "string" ? await readContext(options.context, io) : undefined;
  // The session, the sandbox and the model client load only when a question is asked.
  const [{ runSession }, { buildModel }] = await Promise.all([import("../session/run-session.ts"), import("./build-model.ts")]);
  const model = buildModel(config);
  const nav = repo ? await openNav(repo) : undefined;
  const json = options.json === true || !io.stdout.isTTY;
  const progress = json ? undefined : new ProgressReporter({ stream: io.stderr, mode: io.stderr.isTTY ? "live" : "log" });
  const controller = new AbortController();
  const onSigint = () => controller.abort(new Error("interrupted"));
  process.once("SIGINT", onSigint);

  const tracePath = config.trace !== undefined ? resolve(io.cwd, config.trace) : undefined;
  let result: SessionResult;
  try {
    result = await runSession({
      question,
      model,
      ...(nav ? { repo: nav } : {}),
      maxIterations: config.maxIterations,
      signal: controller.signal,
      ...(context !== undefined ? { context } : {}),
      ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
      ...(tracePath !== undefined ? { tracePath } : {}),
      ...(progress ? { onEvent: progress.onEvent } : {}),
      ...(config.subModel !== undefined ? { subModel: buildModel(config, "subModel") } : {}),
      ...(config.budgetUsd !== undefined ? { budget: { maxCostUsd: config.budgetUsd } } : {}),
    });
  } finally {
    progress?.stop();
    process.off("SIGINT", onSigint);
    await closeNavTools();
  }

  if (json) {
    const output: AskResultJson = {
      status: result.status,
      ...(result.answer !== undefined ? { answer: result.answer } : {}),
      usage: result.usage,
      sessionId: result.sessionId,
      iterations: result.iterations,
      durationMs: Math.round(result.durationMs),
      ...(result.error ? { error: result.error } : {}),
      ...(tracePath ? { trace: tracePath } : {}),
    };
    io.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
  } else if (result.answer !== undefined) {
    io.stdout.write(`${displayValue(result.answer)}\n`);
    const tokens = result.usage.promptTokens + result.usage.completionTokens;
    const cost = result.usage.costUsd > 0 ? ` · $${result.usage.costUsd.toFixed(4)}` : "";
    io.stderr.write(`\n${result.iterations} turn${result.iterations === 1 ? "" : "s"} · ${tokens.toLocaleString("en-US")} tokens${cost} · ${(result.durationMs / 1000).toFixed(1)} s${tracePath ? ` · trace ${tracePath}` : ""}\n`);
  }
  if (result.status !== "final") {
    const reason = result.status === "error" ? (result.error ?? "the session failed") : `no answer: ${result.error ?? result.status}`;
    io.stderr.write(`rlmkit: ${reason.replace(/\s*\n\s*/g, " ")}\n`);
  }
  return exitCodeForStatus(result.status);
}
