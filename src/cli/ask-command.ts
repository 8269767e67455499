import { resolve } from "node:path";
import { Option, type Command } from "commander";
import type { SessionEvent } from "../core/events.ts";
import type { SessionResult } from "../core/session-result.ts";
import type { EffectiveConfig } from "../config/resolve-config.ts";
import type { SessionValidationOptions } from "../session/session-validation.ts";
import type { CliIo } from "./cli-io.ts";
import { EXIT_INTERRUPTED, exitCodeForStatus } from "./exit-codes.ts";
import { addModelOptions, configFromOptions } from "./model-options.ts";
import { closeNavTools, openNav } from "./nav-tools.ts";
import { resolveRepository } from "./repository.ts";

/** How `ask` prints its result: `text` (the answer), `json` (one result object) or `jsonl` (every event as a line, then the result). */
export type AskOutputFormat = "text" | "json" | "jsonl";

/** The JSON `ask --json` prints (and `ask` prints when stdout is not a terminal); with `--output jsonl`, the last line, with `"type": "result"`. */
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
    .addOption(new Option("--output <format>", "text: the answer; json: the result as one JSON object; jsonl: every event as a JSON line as it happens, then the result (default: text on a terminal, json otherwise)").choices(["text", "json", "jsonl"]))
    .option("--json", "the same as --output json")
    .option("--verbose", "print every step on stderr as it happens");
  addModelOptions(command, { trace: true, validation: true, sessionTools: true });
  command.action(async (question: string, options: Record<string, unknown>) => {
    done(await ask(question, options, io));
  });
}

async function ask(question: string, options: Record<string, unknown>, io: CliIo): Promise<number> {
  // With neither --repo nor --context, the working directory is the repository (as for nav and mcp).
  const repo = typeof options.repo === "string" ? resolveRepository(options.repo, io.cwd) : typeof options.context === "string" ? undefined : io.cwd;
  const { values: config } = configFromOptions(options, io, repo ?? io.cwd);
  if (typeof options.context === "string") (await import("./context-access.ts")).checkContextFile(options.context, repo ?? io.cwd, config.secretFiles, io.cwd);
  // The session, the sandbox, the model client and what reports on them load only when a question is asked.
  const [{ runSession }, { buildModel }, { readContext }, { ProgressReporter }, { formatRunHeader, RunSummary }, { displayValue }, { parseNlTools }] = await Promise.all([
    import("../session/run-session.ts"),
    import("./build-model.ts"),
    import("./read-context.ts"),
    import("./progress.ts"),
    import("./run-summary.ts"),
    import("../util/display-value.ts"),
    import("./nl-tools-option.ts"),
  ]);
  const context = typeof options.context === "string" ? await readContext(options.context, io) : undefined;
  const model = buildModel(config);
  if (options.repo === undefined && repo !== undefined) io.stderr.write(`rlmkit: no --repo or --context given; asking about the repository in the working directory, ${repo}\n`);
  const nav = repo ? await openNav(repo, config.secretFiles) : undefined;
  const format: AskOutputFormat = typeof options.output === "string" ? (options.output as AskOutputFormat) : options.json === true || !io.stdout.isTTY ? "json" : "text";
  const verbose = options.verbose === true;
  // Progress and the summary go to stderr: live on a terminal, step by step into a log when the answer is for a person or --verbose asks.
  const terminal = io.stderr.isTTY === true;
  // JSON lines streaming to the same terminal would break a line redrawn in place: the lines are the progress then.
  const live = terminal && !(format === "jsonl" && io.stdout.isTTY === true);
  const progress = live || format === "text" || verbose ? new ProgressReporter({ stream: io.stderr, mode: live ? "live" : "log", verbose }) : undefined;
  const summary = terminal ? new RunSummary() : undefined;
  const listeners = [progress?.onEvent, summary?.onEvent, format === "jsonl" ? (event: SessionEvent) => io.stdout.write(`${JSON.stringify(event)}\n`) : undefined].filter((listener) => listener !== undefined);
  const controller = new AbortController();
  let interrupted = false;
  // Ctrl-C ends the session cleanly (its trace ends with session_end) and exits 130; a second Ctrl-C exits at once.
  const onSigint = () => {
    if (interrupted) {
      progress?.stop();
      process.exit(EXIT_INTERRUPTED);
    }
    interrupted = true;
    controller.abort(new Error("interrupted (Ctrl-C)"));
  };
  process.on("SIGINT", onSigint);

  const tracePath = config.trace !== undefined ? resolve(io.cwd, config.trace) : undefined;
  let result: SessionResult;
  try {
    result = await runSession({
      question,
      model,
      ...(nav ? { repo: nav } : {}),
      maxIterations: config.maxIterations,
      sandbox: { backend: config.sandbox },
      protocol: config.protocol,
      signal: controller.signal,
      ...(context !== undefined ? { context } : {}),
      ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
      ...(tracePath !== undefined ? { tracePath } : {}),
      ...(listeners.length > 0 ? { onEvent: (event: SessionEvent) => listeners.forEach((listener) => listener(event)) } : {}),
      ...(config.subModel !== undefined ? { subModel: buildModel(config, "subModel") } : {}),
      budget: { maxModelCalls: config.maxModelCalls, ...(config.budgetUsd !== undefined ? { maxCostUsd: config.budgetUsd } : {}) },
      ...(config.maxTokens !== undefined ? { maxTokens: config.maxTokens } : {}),
      ...validationOption(config, io.cwd, buildModel),
      ...(config.translatorModel !== undefined ? { translatorModel: buildModel(config, "translatorModel") } : {}),
      ...(config.nlTools !== undefined ? { nlTools: parseNlTools(config.nlTools) } : {}),
      ...(config.backgroundSessions ? { backgroundSessions: true } : {}),
    });
  } finally {
    progress?.stop();
    process.off("SIGINT", onSigint);
    await closeNavTools();
  }

  if (format !== "text") {
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
    io.stdout.write(format === "jsonl" ? `${JSON.stringify({ type: "result", ...output })}\n` : `${JSON.stringify(output, null, 2)}\n`);
  } else if (result.answer !== undefined) {
    io.stdout.write(`${displayValue(result.answer)}\n`);
  }
  // What happened, on stderr: the whole summary on a terminal, its first line in a log.
  if (summary) io.stderr.write(`\n${summary.format(result, tracePath ? { tracePath } : {})}`);
  else if (format === "text") io.stderr.write(`\n${formatRunHeader(result)}${tracePath ? ` · trace ${tracePath}` : ""}\n`);
  // A Ctrl-C that came as the session was answering anyway does not undo the answer.
  if (interrupted && result.status !== "final") {
    io.stderr.write("rlmkit: interrupted (Ctrl-C)\n");
    return EXIT_INTERRUPTED;
  }
  if (result.status !== "final") {
    const reason = result.status === "error" ? (result.error ?? "the session failed") : `no answer: ${result.error ?? result.status}`;
    io.stderr.write(`rlmkit: ${reason.replace(/\s*\n\s*/g, " ")}\n`);
  }
  return exitCodeForStatus(result.status);
}

/** `runSession({ validation })` from `--validate` and the flags that imply it. */
function validationOption(config: EffectiveConfig, cwd: string, buildModel: (config: EffectiveConfig, which: "validatorModel") => SessionValidationOptions["model"]): { validation?: SessionValidationOptions } {
  if (!config.validate && config.validatorModel === undefined && config.validationHooks === undefined && config.validationLog === undefined) return {};
  return {
    validation: {
      ...(config.validatorModel !== undefined ? { model: buildModel(config, "validatorModel") } : {}),
      ...(config.validationHooks !== undefined ? { customHooks: resolve(cwd, config.validationHooks) } : {}),
      ...(config.validationLog !== undefined ? { logDatabase: resolve(cwd, config.validationLog) } : {}),
    },
  };
}
