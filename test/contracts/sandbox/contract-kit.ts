/**
 * What every part of the Sandbox contract shares: a way to open sandboxes (closed
 * after each test), a test fixture with a fresh sandbox, and helpers.
 */
import { afterEach, expect, test as base, type TestAPI } from "vitest";
import type { ExecutionResult, Sandbox, SandboxFactory, SandboxOptions } from "../../../sandbox/index.ts";

/** The short time limit most contract tests run with. */
export const TIMEOUT_MS = 400;

/** Runs blocks in order and returns the last result, failing on an unexpected error in earlier ones. */
export async function runAll(sandbox: Sandbox, blocks: string[]): Promise<ExecutionResult> {
  let result: ExecutionResult | undefined;
  for (const [index, block] of blocks.entries()) {
    result = await sandbox.execute(block);
    if (index < blocks.length - 1) expect(result.error, `block ${index + 1}: ${block}`).toBeUndefined();
  }
  return result!;
}

/** What a part of the contract gets: the factory under test, `open`, and a test fixture with a fresh sandbox. */
export interface ContractKit {
  readonly factory: SandboxFactory;
  /** Opens a sandbox with short limits (overridable), disposed after the test. */
  open(options?: SandboxOptions): Promise<Sandbox>;
  /** `test`, with a fresh sandbox with short limits as the `sandbox` fixture. */
  readonly test: TestAPI<{ sandbox: Sandbox }>;
}

/** Makes the kit for `factory` (and registers the clean-up after each test of the calling suite). */
export function contractKit(factory: SandboxFactory): ContractKit {
  const opened: Sandbox[] = [];
  async function open(options: SandboxOptions = {}): Promise<Sandbox> {
    const sandbox = await factory.create({ timeoutMs: TIMEOUT_MS, memoryLimitMb: 32, ...options });
    opened.push(sandbox);
    return sandbox;
  }
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((sandbox) => sandbox.dispose()));
  });
  const test = base.extend<{ sandbox: Sandbox }>({
    // eslint-disable-next-line no-empty-pattern
    sandbox: async ({}, use) => {
      await use(await open());
    },
  });
  return { factory, open, test };
}
