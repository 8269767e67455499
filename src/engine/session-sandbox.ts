import type { Sandbox, SandboxFactory, SandboxOptions } from "../../sandbox/index.ts";
import { raceAbort } from "../core/abort.ts";
import type { JsonValue } from "../core/json-value.ts";
import type { Tool } from "../tools/tool.ts";

/** What a session's sandbox is opened with. */
export interface SessionSandboxSetup {
  readonly factory: SandboxFactory;
  readonly options: SandboxOptions;
  readonly signal: AbortSignal;
  /** Set as the persistent global `context`. */
  readonly context: JsonValue | undefined;
  /** Each gets a stub that explains the intercepted form when called any other way. */
  readonly tools: Iterable<Tool>;
  /** Exposes the sub-call functions, when the session has them. */
  readonly expose?: (sandbox: Sandbox) => Promise<void>;
}

/**
 * A session's sandbox, opened on the first `get()` (every later call gets the same
 * one): `context` set, a stub per tool, sub-call functions exposed. Opening can wait
 * for a worker process; a session stopped meanwhile does not wait for it, and closes
 * it when it comes. `dispose()` closes what was opened.
 */
export function sessionSandbox({ factory, options, signal, context, tools, expose }: SessionSandboxSetup): { readonly get: () => Promise<Sandbox>; readonly dispose: () => Promise<void> } {
  let opened: Sandbox | undefined;
  let ready: Promise<Sandbox> | undefined;
  const open = async (): Promise<Sandbox> => {
    const opening = factory.create(options);
    opening.then(
      (sandbox) => {
        if (signal.aborted) void sandbox.dispose();
      },
      () => undefined,
    );
    const sandbox = (opened = await raceAbort(opening, signal));
    if (context !== undefined) await sandbox.setPersistentGlobal("context", context);
    for (const tool of tools) {
      await sandbox.defineStub(tool.name, `${tool.name} can only be called as a top-level statement that assigns its result, with literal arguments: const result = ${tool.name}(...). It cannot be called from functions, loops, conditions, other expressions, eval or through another name.`);
    }
    await expose?.(sandbox);
    return sandbox;
  };
  return {
    get: () => (ready ??= open()),
    dispose: async () => {
      await opened?.dispose();
    },
  };
}
