import { HookInvariantError } from "../core/errors/hook-invariant-error.ts";
import { InvalidOptionsError } from "../core/errors/invalid-options-error.ts";
import type { HookPoint, SessionEventInput } from "../core/events.ts";
import { composeHooks } from "./compose-hooks.ts";
import type { HookContext, SessionHook } from "./hooks.ts";

const POINTS: readonly HookPoint[] = ["after_reply", "before_tool", "after_tool", "before_answer"];

/** What the hooks of one point asked for. */
export interface HookVerdict {
  readonly vetoes: readonly string[];
  readonly corrections: readonly string[];
  /** Reasons of hooks that asked for the reply to be dropped from the history (`after_reply`). */
  readonly discards: readonly string[];
}

/** A hook context before the session's `correct`/`veto`/`warn` are attached. */
export type HookContextFields = HookContext extends infer Context ? (Context extends unknown ? Omit<Context, "correct" | "veto" | "warn" | "discard"> : never) : never;

/**
 * The hooks of one session, composed per point. Each veto, correction and warning
 * becomes a `hook` event naming the hook; corrections also wait until the turn
 * takes them (`takeCorrections`) for its message to the model. A hook that throws rejects `run` (a host fault).
 */
export class SessionHooks {
  readonly #byPoint = new Map<HookPoint, readonly SessionHook[]>();
  readonly #emit: (event: SessionEventInput) => void;
  #corrections: string[] = [];

  constructor(hooks: readonly SessionHook[], emit: (event: SessionEventInput) => void) {
    this.#emit = emit;
    for (const point of POINTS) {
      const chosen = hooks.filter((hook) => hook.points.includes(point));
      if (chosen.length > 0) this.#byPoint.set(point, chosen);
    }
  }

  /** The corrections hooks made since the last call, for the turn's next message to the model. */
  takeCorrections(): string[] {
    return this.#corrections.splice(0);
  }

  /** Whether the session has any hook (so callers can skip recording what only hooks read). */
  get active(): boolean {
    return this.#byPoint.size > 0;
  }

  /** Whether any hook runs at `point` (so callers can skip building its context). */
  has(point: HookPoint): boolean {
    return this.#byPoint.has(point);
  }

  /** Runs the hooks of `fields.point` on a context made of `fields`, and says what they asked for; `fields` sees their changes. */
  async run(fields: HookContextFields): Promise<HookVerdict> {
    const hooks = this.#byPoint.get(fields.point);
    if (!hooks) return { vetoes: [], corrections: [], discards: [] };
    const vetoes: string[] = [];
    const corrections: string[] = [];
    const discards: string[] = [];
    const record: Recorder = (hook, action, message) => {
      const text = String(message);
      if (action === "veto") vetoes.push(text);
      if (action === "correct") corrections.push(text);
      if (action === "discard") discards.push(text);
      this.#emit({ type: "hook", iteration: fields.iteration, point: fields.point, hook, action, message: text });
    };
    try {
      await composeHooks(hooks.map((hook) => named(hook, fields.point, record)))(fields as HookContext);
    } catch (error) {
      if (error instanceof HookInvariantError) throw new HookInvariantError({ index: error.index, message: `hook '${hooks[error.index]!.name}' (${fields.point}) called next() more than once` });
      throw error;
    }
    this.#corrections.push(...corrections);
    return { vetoes, corrections, discards };
  }
}

/** Checks `runSession({ hooks })`: an array of `{ name, points, run }`. */
export function validateHooks(hooks: unknown): readonly SessionHook[] {
  if (hooks === undefined) return [];
  if (!Array.isArray(hooks)) throw new InvalidOptionsError({ option: "hooks", message: "runSession: hooks must be an array of { name, points, run }." });
  hooks.forEach((hook: Partial<SessionHook> | null, index) => {
    const bad = (what: string) => new InvalidOptionsError({ option: `hooks[${index}]`, message: `runSession: hooks[${index}] ${what}` });
    if (typeof hook !== "object" || hook === null) throw bad("must be an object { name, points, run }.");
    if (typeof hook.name !== "string" || hook.name === "") throw bad("needs a name (a non-empty string).");
    if (!Array.isArray(hook.points) || hook.points.length === 0 || hook.points.some((point) => !POINTS.includes(point))) throw bad(`('${hook.name}') needs points, a non-empty list of ${POINTS.map((point) => `'${point}'`).join(", ")}.`);
    if (typeof hook.run !== "function") throw bad(`('${hook.name}') needs run, a function (context, next) => ….`);
  });
  return hooks as readonly SessionHook[];
}

type Recorder = (hook: string, action: HookAction, message: string) => void;
type HookAction = "veto" | "correct" | "warn" | "discard";
const ACTIONS: ReadonlySet<PropertyKey> = new Set<HookAction>(["veto", "correct", "warn", "discard"]);

/** The hook's middleware, seeing the shared context through a view whose veto/correct/warn carry the hook's name. */
function named(hook: SessionHook, point: HookPoint, record: Recorder): (context: HookContext, next: () => Promise<void>) => Promise<void> {
  return async (context, next) => {
    const act = (action: HookAction) => (message: string) => record(hook.name, action, message);
    const view = new Proxy(context, {
      get: (target, key) => (ACTIONS.has(key) ? act(key as HookAction) : Reflect.get(target, key)),
    });
    try {
      await hook.run(view, next);
    } catch (error) {
      if (error instanceof HookInvariantError || (error instanceof Error && FAILED.has(error))) throw error;
      const failure = new Error(`hook '${hook.name}' (${point}) threw: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      FAILED.add(failure);
      throw failure;
    }
  };
}

const FAILED = new WeakSet<Error>();
