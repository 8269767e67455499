import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import type { Command } from "commander";
import type { SessionEvent } from "../core/events.ts";
import { CliError } from "./cli-error.ts";
import type { CliIo } from "./cli-io.ts";
import { EXIT_NOT_REPRODUCED, EXIT_OK, exitCodeForStatus } from "./exit-codes.ts";
import type { NavTools } from "../nav/index.ts";
import { closeNavTools, openNav } from "./nav-tools.ts";
import { resolveRepository } from "./repository.ts";

/** Registers `rlmkit replay TRACE.jsonl`. */
export function registerReplayCommand(program: Command, io: CliIo, done: (code: number) => void): void {
  program
    .command("replay")
    .description("re-run a recorded session with the model replies from its trace (no network) and check it reproduces the answer")
    .argument("<trace>", "a JSONL trace written by `ask --trace` or runSession({ tracePath })")
    .option("--repo <dir>", "repository for the navigation tools, when the session used them", ".")
    .option("--context <file>", "the input the recorded session had as `context`, a file or - for stdin (traces keep only its description)")
    .option("--view <file>", "also write the replayed session as an HTML page")
    .option("--trace <file>", "write the replayed session's events to this JSONL file")
    .option("--json", "print only the outcome as JSON")
    .action(async (trace: string, options: { repo: string; context?: string; view?: string; trace?: string; json?: boolean }) => {
      done(await replay(trace, options, io));
    });
}

async function replay(tracePath: string, options: { repo: string; context?: string; view?: string; trace?: string; json?: boolean }, io: CliIo): Promise<number> {
  const [{ readTrace }, { renderTraceHtml }, { ProgressReporter }, { readContext }, { displayValue }, { describesNoContext }] = await Promise.all([
    import("../view/read-trace.ts"),
    import("../view/render-trace-html.ts"),
    import("./progress.ts"),
    import("./read-context.ts"),
    import("../util/display-value.ts"),
    import("../session/describe-context.ts"),
  ]);
  let parsed;
  try {
    parsed = readTrace(resolve(io.cwd, tracePath));
  } catch (error) {
    throw new CliError((error as Error).message, { cause: error });
  }
  const { events } = parsed;
  const start = events.find((event): event is Extract<SessionEvent, { type: "session_start" }> => event.type === "session_start" && (event.depth ?? 0) === 0);
  if (!start) throw new CliError(`${tracePath} has no root session_start event; is it a trace written by rlmkit?`);
  const hadContext = !describesNoContext(start.context);
  if (hadContext && options.context === undefined) throw new CliError("the recorded session had a `context` input, which traces do not keep; pass the same input with --context FILE");
  const context = options.context !== undefined ? await readContext(options.context, io) : undefined;
  let repo: string | undefined;
  let nav: NavTools | undefined;
  if (start.tools.some((name) => name.startsWith("nav_"))) {
    repo = resolveRepository(options.repo, io.cwd);
    nav = await openNav(repo);
  }
  const recordedReplies = events.filter((event) => event.type === "model_call" && event.sessionId === start.sessionId).length;

  const human = options.json !== true;
  if (human) {
    io.stdout.write(`Replaying ${recordedReplies} recorded model repl${recordedReplies === 1 ? "y" : "ies"} from ${tracePath}.\n`);
    io.stdout.write(`No model server is contacted: every model reply is taken from the recording. The sandbox${repo ? ` and the navigation tools run for real on ${repo}` : " runs for real"}.\n\n`);
    io.stdout.write(`Question: ${start.question}\n`);
  }
  const progress = human ? new ProgressReporter({ stream: io.stdout, mode: "log" }) : undefined;
  const replayed: SessionEvent[] = [];
  const { replaySession } = await import("../replay/replay-session.ts");
  const outcome = await replaySession({
    events,
    ...(nav ? { repo: nav } : {}),
    ...(context !== undefined ? { context } : {}),
    ...(options.trace ? { tracePath: resolve(io.cwd, options.trace) } : {}),
    onEvent: (event) => {
      replayed.push(event);
      progress?.onEvent(event);
    },
  });
  progress?.stop();
  await closeNavTools();
  let viewPath: string | undefined;
  if (options.view) {
    viewPath = resolve(io.cwd, options.view);
    mkdirSync(dirname(viewPath), { recursive: true });
    writeFileSync(viewPath, renderTraceHtml(replayed, { title: `rlmkit replay — ${start.question.slice(0, 80)}` }));
  }

  const { result } = outcome;
  if (!human) {
    io.stdout.write(`${JSON.stringify({ reproduced: outcome.reproduced, differences: outcome.differences, status: result.status, ...(result.answer !== undefined ? { answer: result.answer } : {}), recorded: outcome.recorded, replies: outcome.replies, usage: result.usage, ...(result.error ? { error: result.error } : {}), ...(viewPath ? { view: viewPath } : {}) }, null, 2)}\n`);
  } else {
    io.stdout.write(`\n${result.answer !== undefined ? `Answer:\n${displayValue(result.answer)}` : `No answer (${result.status}${result.error ? `: ${result.error}` : ""})`}\n\n`);
    io.stdout.write(outcome.reproduced ? `Reproduced: same status (${result.status}) and same answer as the recording, using ${outcome.replies.used} of ${outcome.replies.recorded} recorded replies.\n` : `Did not reproduce the recording:\n${outcome.differences.map((difference) => `  - ${difference}`).join("\n")}\n`);
    if (viewPath) io.stdout.write(`HTML view: ${relative(io.cwd, viewPath) || viewPath}\n`);
  }
  if (!outcome.reproduced) return EXIT_NOT_REPRODUCED;
  return result.status === "final" ? EXIT_OK : exitCodeForStatus(result.status);
}
