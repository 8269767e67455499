import { randomUUID } from "node:crypto";
import { createNavTools, type NavTools } from "../nav/create-nav-tools.ts";
import type { ModelClient } from "../model/model-client.ts";
import type { Tool } from "../tools/tool.ts";
import type { CustomHookSpec } from "./custom-hooks.ts";
import type { HookSettings } from "./hook-definition.ts";
import { InteractionLog } from "./interaction-log.ts";
import { resolveHooks, type ResolvedHook } from "./resolve-hooks.ts";
import { runRound } from "./validation-round.ts";
import type { ValidationInput, ValidationResult } from "./validation-types.ts";

/** Options of {@link createValidator}. */
export interface ValidatorOptions {
  /**
   * The validator model: one call per round detects every model-detected hook
   * of the phase, and hooks validated by a model get a call each. Without it,
   * the deterministic detectors do the detecting and model-only hooks
   * (`objective_completion`) are skipped.
   */
  readonly model?: ModelClient;
  /** Per-hook settings by name: `false` turns a hook off; an object sets `enabled`, `scope`, `haltInference`, `killOnDetect`. */
  readonly hooks?: Readonly<Record<string, boolean | HookSettings>>;
  /** Custom hooks: a JSON file holding an array, or the array. An entry named like a built-in replaces it. */
  readonly customHooks?: string | readonly CustomHookSpec[];
  /** Tools for `tool_schema_validation` (a round's `tools` are added). */
  readonly tools?: readonly Tool[];
  /** A SQLite file that gets one `interaction_log` row per stage of every round. */
  readonly logDatabase?: string;
  /** Test seam: the clock of the log. */
  readonly _internal?: { readonly now?: () => Date };
}

/** A validator: checks replies, tool calls and tool results, and says what to tell the model. */
export interface Validator {
  /** The hooks in effect, after custom hooks and settings. */
  readonly hooks: readonly ResolvedHook[];
  /** Problems with the custom hooks (a malformed file); the built-ins are used alone when there are any. */
  readonly problems: readonly string[];
  /** Runs one validation round. Never throws for what the model wrote; a failing validator model degrades the round. */
  check(input: ValidationInput & { readonly signal?: AbortSignal }): Promise<ValidationResult>;
  /** Closes the log database and the nav tools the validator opened itself. */
  close(): Promise<void>;
}

const REMEMBERED_TURNS = 64;

/**
 * Creates a validator for harnesses, for measuring, and for sessions
 * (`runSession({ validation })` builds one).
 *
 * @example
 * const validator = createValidator();
 * const result = await validator.check({
 *   phase: "post_inference", scope: "main",
 *   reply: "I'll check the config file.",
 *   turn: { toolCalls: [], blocksRun: 0, outputSeen: [] },
 * });
 * result.violations; // [{ hook: "empty_promise", reason: "the reply says \"I'll check the config file.\" but …", … }]
 * result.correction; // one message for the model
 */
export function createValidator(options: ValidatorOptions = {}): Validator {
  const { model, hooks: settings, customHooks, tools = [], logDatabase, _internal: { now = () => new Date() } = {} } = options;
  const { hooks, problems } = resolveHooks(settings, customHooks);
  const log = logDatabase === undefined ? undefined : new InteractionLog(logDatabase);
  const fired = new Map<string, Set<string>>();
  const opened = new Map<string, Promise<NavTools>>();

  const repoOf = (repo: ValidationInput["repo"]): Promise<NavTools> | undefined => {
    if (repo === undefined || typeof repo !== "string") return repo === undefined ? undefined : Promise.resolve(repo);
    let nav = opened.get(repo);
    if (!nav) {
      nav = createNavTools(repo, { cacheDir: false });
      opened.set(repo, nav);
    }
    return nav;
  };

  return {
    hooks,
    problems,
    async check(input) {
      const key = input.turnId === undefined ? undefined : `${input.scope}\u0000${String(input.turnId)}`;
      const alreadyFired = (key !== undefined ? fired.get(key) : undefined) ?? new Set<string>();
      const repo = await repoOf(input.repo);
      const { result, rows } = await runRound(input, { hooks, tools, alreadyFired, ...(model ? { model } : {}), ...(repo ? { repo } : {}), ...(input.signal ? { signal: input.signal } : {}) });
      if (key !== undefined && result.violations.length > 0) {
        fired.set(key, new Set([...alreadyFired, ...result.violations.map((violation) => violation.hook)]));
        if (fired.size > REMEMBERED_TURNS) fired.delete(fired.keys().next().value!);
      }
      if (log && rows.length > 0) {
        const round = randomUUID();
        const common = { round, phase: input.phase, scope: input.scope, ...(input.sessionId ? { sessionId: input.sessionId } : {}), ...(input.turnId !== undefined ? { turnId: String(input.turnId) } : {}) };
        log.write(rows.map((row) => ({ ...common, ...row })), now());
      }
      return result;
    },
    async close() {
      log?.close();
      for (const nav of opened.values()) await (await nav).close();
      opened.clear();
    },
  };
}
