// What crosses the isolate boundary as text: host-function arguments and replies,
// a block's outcome, and error positions mapped back to the model's own code.
import { MAX_VALUE_DEPTH, type GuestValue } from "./sandbox.ts";
import type { ReplProgram } from "./repl-rewrite.ts";
import { redactHostPaths } from "./redact.ts";

/** True when JSON text nests arrays and objects deeper than `limit`; one linear pass, brackets inside strings ignored. */
export function tooDeep(json: string, limit = MAX_VALUE_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < json.length; index++) {
    const char = json.charCodeAt(index);
    if (inString) {
      if (char === 0x5c) index++;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > limit) return true;
    } else if (char === 0x5d || char === 0x7d) depth--;
  }
  return false;
}

export function parseArguments(args: unknown): GuestValue[] {
  const parsed: unknown = typeof args === "string" ? JSON.parse(args) : [];
  return Array.isArray(parsed) ? (parsed as GuestValue[]) : [];
}

/**
 * Reads what the runtime's `compileRun` resolved to: nothing, or a JSON description of what the block threw, with
 * `compile` when the block did not compile (or its top-level declarations failed) and nothing of it ran.
 */
export function readOutcome(outcome: unknown): { name: string; message: string; stack: string; compile: boolean } | undefined {
  if (outcome === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = typeof outcome === "string" ? JSON.parse(outcome) : undefined;
  } catch {
    parsed = undefined;
  }
  const record = (parsed ?? {}) as Record<string, unknown>;
  const text = (value: unknown, fallback: string): string => (typeof value === "string" ? value : fallback);
  return {
    name: text(record.name, "Error"),
    message: text(record.message, "the block failed in a way that could not be described"),
    stack: text(record.stack, ""),
    compile: record.compile === true,
  };
}

export function reply(value: unknown): string {
  try {
    return JSON.stringify({ value: value === undefined ? null : value });
  } catch (error) {
    return replyError(error);
  }
}

export function replyError(error: unknown): string {
  const err = error as Error;
  return JSON.stringify({ error: redactHostPaths(String(err?.message ?? error)), errorName: typeof err?.name === "string" ? err.name : "Error" });
}

/** Finds the first stack frame in the block's own file and maps it to the caller's line and column. */
export function locate(stack: string, filename: string, program: ReplProgram): { line?: number; column?: number } {
  const match = new RegExp(`${filename.replace(/[.]/g, "\\.")}:(\\d+):(\\d+)`).exec(stack);
  if (!match) return {};
  return program.toOriginal(Number(match[1]), Number(match[2])) ?? {};
}
