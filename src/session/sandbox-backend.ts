import { DEFAULT_SANDBOX_BACKEND, isolateSandboxFactory, sharedProcessSandboxFactory, type SandboxBackend, type SandboxFactory, type SandboxOptions } from "../../sandbox/index.ts";

/** Sandbox limits for a session, plus where its code runs. */
export interface SessionSandboxOptions extends SandboxOptions {
  /** `process` (default): in a shared pool of worker processes; `isolate`: in this process. Ignored when `sandboxFactory` is given. */
  readonly backend?: SandboxBackend;
}



/** The factory a session asks for its sandbox: the caller's own, or the shared one of the named backend. */
export function resolveSandboxFactory(factory: SandboxFactory | undefined, backend: SandboxBackend | undefined): SandboxFactory {
  if (factory) {
    if (typeof factory.create !== "function") throw new TypeError("runSession: sandboxFactory must be a SandboxFactory (an object with create(options)).");
    return factory;
  }
  const chosen = backend ?? DEFAULT_SANDBOX_BACKEND;
  if (chosen === "isolate") return isolateSandboxFactory;
  if (chosen === "process") return sharedProcessSandboxFactory();
  throw new RangeError(`runSession: unknown sandbox backend '${String(chosen)}'; the backends are "process" and "isolate".`);
}
