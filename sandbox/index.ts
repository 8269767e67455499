/** The sandbox seam and its isolated-vm implementation: the security boundary where model code runs. See DOCS/ARCHITECTURE.md, "Sandbox". */
export { createIsolateSandbox, isolateSandboxFactory } from "./isolate-sandbox.ts";
export { createProcessSandboxFactory, sharedProcessSandboxFactory, WORKER_BASE_MEMORY_MB, type ProcessSandboxFactory, type ProcessSandboxOptions } from "./process-pool.ts";
export { KILL_GRACE_MS } from "./process-sandbox.ts";
export {
  DEFAULT_MAX_HOST_WAIT_MS,
  DEFAULT_MAX_OUTPUT_CHARS,
  DEFAULT_MEMORY_LIMIT_MB,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_SANDBOX_BACKEND,
  MAX_FINAL_CHARS,
  MAX_VALUE_DEPTH,
  SANDBOX_BACKENDS,
  type ExecutionError,
  type ExecutionErrorKind,
  type ExecutionResult,
  type GuestValue,
  type HostFunction,
  type Sandbox,
  type SandboxBackend,
  type SandboxFactory,
  type SandboxOptions,
} from "./sandbox.ts";
export { GuestSyntaxError, RESERVED_PREFIX, boundNames, parseGuest, toReplProgram, type ReplOptions, type ReplProgram, type ReplScope } from "./repl-rewrite.ts";
export { redactHostPaths } from "./redact.ts";
export { SourceSplice } from "./splice.ts";
