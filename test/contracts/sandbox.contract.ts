/**
 * The Sandbox contract: what every backend must do, one suite run against each
 * (`isolate-sandbox.test.ts`, `process-sandbox.test.ts`). Only the public seam is used.
 * Its parts live in `sandbox/`, one concern each.
 */
import type { SandboxFactory } from "../../sandbox/index.ts";
import { contractKit } from "./sandbox/contract-kit.ts";
import { errorsAndReach } from "./sandbox/errors-and-reach.contract.ts";
import { hostCalls } from "./sandbox/host-calls.contract.ts";
import { limits } from "./sandbox/limits.contract.ts";
import { replOutputAndFinal } from "./sandbox/repl-output-final.contract.ts";

/** Defines the whole contract suite for the sandboxes `factory` makes. */
export function sandboxContract(factory: SandboxFactory): void {
  const kit = contractKit(factory);
  replOutputAndFinal(kit);
  errorsAndReach(kit);
  limits(kit);
  hostCalls(kit);
}
