import type { ReplProgram, ReplScope } from "./repl-rewrite.ts";

/**
 * What the REPL rewrite remembers across the blocks of one isolate: the names
 * blocks declared, and the names their functions refer to (those stay on the
 * global object in every later block). A fresh isolate starts a fresh state.
 */
export class ReplState implements ReplScope {
  readonly declared = new Set<string>();
  readonly captured = new Set<string>();
  dynamic = false;

  /** Takes note of a block that is about to run. */
  record(program: ReplProgram): void {
    for (const name of program.declared) this.declared.add(name);
    for (const name of program.captured) this.captured.add(name);
    this.dynamic ||= program.dynamic;
  }
}
