/** What {@link ChildSessionGate.enter} resolves to. */
export type ChildAdmission = { readonly ok: true; release(): void } | { readonly ok: false; readonly message: string };

/**
 * Admits child sessions at one depth of a call tree: at most `maxSessions` at
 * once, and at most `maxMemoryMb` claimed by the running ones (each claims its
 * sandbox memory limit plus its input). The rest wait in first-come order; a
 * child that could never fit is refused at once. One gate per depth keeps nested
 * children from deadlocking: a child waits only for its own depth, whose running
 * sessions never wait for it.
 */
export class ChildSessionGate {
  readonly maxSessions: number;
  readonly maxMemoryMb: number;
  readonly #waiting: { memoryMb: number; admit: () => void }[] = [];
  #running = 0;
  #memoryMb = 0;

  constructor(maxSessions: number, maxMemoryMb: number) {
    this.maxSessions = maxSessions;
    this.maxMemoryMb = maxMemoryMb;
  }

  /** Children running now. */
  get running(): number {
    return this.#running;
  }

  /** Waits for room for one child claiming `memoryMb`. Resolves `ok: false` when it can never fit or `signal` aborts while it waits. */
  enter(memoryMb: number, signal: AbortSignal): Promise<ChildAdmission> {
    if (memoryMb > this.maxMemoryMb) {
      return Promise.resolve({ ok: false, message: `a child session with this input would claim about ${memoryMb.toLocaleString("en-US")} MB, over the ${this.maxMemoryMb.toLocaleString("en-US")} MB child sessions may hold; give it a smaller value` });
    }
    if (signal.aborted) return Promise.resolve({ ok: false, message: "the session was stopped" });
    return new Promise((resolve) => {
      const entry = {
        memoryMb,
        admit: () => {
          signal.removeEventListener("abort", onAbort);
          this.#running++;
          this.#memoryMb += memoryMb;
          let released = false;
          resolve({
            ok: true,
            release: () => {
              if (released) return;
              released = true;
              this.#running--;
              this.#memoryMb -= memoryMb;
              this.#drain();
            },
          });
        },
      };
      const onAbort = (): void => {
        const index = this.#waiting.indexOf(entry);
        if (index >= 0) this.#waiting.splice(index, 1);
        resolve({ ok: false, message: "the session was stopped" });
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(entry);
      this.#drain();
    });
  }

  #drain(): void {
    while (this.#waiting.length > 0) {
      const next = this.#waiting[0]!;
      if (this.#running >= this.maxSessions || this.#memoryMb + next.memoryMb > this.maxMemoryMb) return;
      this.#waiting.shift();
      next.admit();
    }
  }
}
