import ivm from "isolated-vm";
import type { GuestValue } from "./sandbox.ts";
import { GUEST_RUNTIME_SOURCE, HOST_CALLBACKS, RUNTIME_ENTRY_POINTS } from "./guest-runtime.ts";
import { ReplState } from "./repl-state.ts";
import { withSemiSpace } from "./nursery.ts";
import { persistentBytes } from "./json-size.ts";

export type RuntimeEntryPoint = (typeof RUNTIME_ENTRY_POINTS)[number];

/** How long a new isolate may take to set up its context and runtime. */
const SET_UP_WITHIN_MS = 10_000;
/** How long the host waits for an isolate that runs no block (heap statistics, the memory check after a block, a set-up call, at least the compile of a block too long for the runtime to compile) before writing it off as stuck. */
export const CHECK_WITHIN_MS = 5_000;
/** Extra time a global's value may take to be copied in, per MB it is budgeted (the process backend allows its workers as much per MB). */
const COPY_MS_PER_MB = 100;

/** One isolate with its context, the runtime's entry points and its in-flight host calls. */
export interface Live {
  readonly isolate: ivm.Isolate;
  readonly context: ivm.Context;
  readonly runtime: Record<RuntimeEntryPoint, ivm.Reference>;
  /** Async host calls started by this isolate that have not returned yet. */
  inFlight: number;
  /** When `inFlight` last went from 0 to 1 (or the current block started, if later). */
  waitingSince: number;
  /** Settlements that arrived while no block was running; delivered when the next block starts. */
  readonly queued: [id: number, json: string][];
  /** Settlements being delivered right now. */
  readonly settling: Set<Promise<unknown>>;
  /** Rejects when the isolate is written off (see {@link writeOff}). */
  readonly broken: Promise<never>;
  /** Why the isolate was written off, if it was: its thread may live on, so it is only ever disposed. */
  lost?: LostReason;
  /** Rejects `broken`: called by {@link writeOff} (and by `createLive`, for a catastrophe while the isolate is set up). */
  readonly reject: (error: Error) => void;
  /** Tells the host the isolate was written off. */
  readonly onLost: (why: LostReason) => void;
  /** The heap limit it was created with (it cannot change for an isolate). */
  readonly limitMb: number;
  /**
   * Ends the host's wait for a run that failed for it but goes on: called when the runtime says the
   * latest run has ended (see its `ended`), and by the watchdog when the isolate is disposed.
   */
  endWait?: () => void;
  /** What the REPL rewrite knows of the blocks that ran in this isolate. */
  readonly repl: ReplState;
}

/**
 * Why an isolate was written off: `catastrophe` when V8 reported an out-of-memory
 * error it could not handle (isolated-vm then parks the isolate's thread for good),
 * `stuck` when it did not answer the host in time, even after being disposed (a
 * built-in that never checks for interrupts keeps its thread busy).
 */
export type LostReason = "catastrophe" | "stuck";

/** What the host does when the guest runtime calls out of an isolate. */
export interface LiveCallbacks {
  /** Printed text; returns false once the block's output is closed. */
  output(text: unknown): boolean;
  /** FINAL's JSON; returns an error message for the guest, or undefined. */
  final(json: unknown): string | undefined;
  /** An async host-function call started by the guest of `live`. */
  callStart(live: Live, name: unknown, args: unknown, id: unknown): void;
  /** The isolate was written off (see {@link writeOff}): its thread may stay behind in this process. */
  lost(why: LostReason): void;
}

/**
 * Starts an isolate with the given heap limit and nursery, a context holding the
 * guest runtime, and the host callbacks the runtime captures (and then deletes
 * from the global object).
 */
export async function createLive(limitMb: number, semiSpaceMb: number, callbacks: LiveCallbacks): Promise<Live> {
  let reject: (error: Error) => void = () => undefined;
  const broken = new Promise<never>((_, rejectBroken) => (reject = rejectBroken));
  broken.catch(() => undefined);
  let live: Live | undefined;
  // Without this callback V8 aborts the whole host process when a guest allocation
  // cannot be satisfied at all (a huge dictionary growing, for example). With it the
  // isolate is written off and the block ends as a memory error.
  // isolated-vm keeps the limit as whole megabytes: so does the host, which compares with it.
  const wholeMb = Math.floor(limitMb);
  const isolate = withSemiSpace(semiSpaceMb, () => new ivm.Isolate({
    memoryLimit: wholeMb,
    onCatastrophicError: () => {
      if (live) return writeOff(live, "catastrophe");
      // While the isolate is set up: the set-up fails (it races `broken`).
      callbacks.lost("catastrophe");
      reject(new Error("catastrophic isolate error"));
    },
  }));
  // A catastrophe during set-up may leave isolated-vm's promises pending for good: the set-up stops waiting then, or at a deadline.
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`a new sandbox isolate did not start within ${SET_UP_WITHIN_MS} ms`)), SET_UP_WITHIN_MS)));
  deadline.catch(() => undefined);
  const setUp = <T>(work: Promise<T>): Promise<T> => Promise.race([work, broken, deadline]);
  let context: ivm.Context;
  const entries = {} as Record<RuntimeEntryPoint, ivm.Reference>;
  try {
    context = await setUp(isolate.createContext());
    const global = context.global;
    await setUp(global.set(HOST_CALLBACKS.output, new ivm.Callback((text: unknown) => callbacks.output(text))));
    await setUp(global.set(HOST_CALLBACKS.final, new ivm.Callback((json: unknown) => callbacks.final(json))));
    await setUp(
      global.set(
        HOST_CALLBACKS.callStart,
        new ivm.Callback((name: unknown, args: unknown, id: unknown) => void (live && callbacks.callStart(live, name, args, id))),
      ),
    );
    await setUp(
      global.set(
        HOST_CALLBACKS.runEnded,
        new ivm.Callback(() => void live?.endWait?.()),
      ),
    );
    const runtime = (await setUp(context.eval(GUEST_RUNTIME_SOURCE, { filename: "rlmkit-runtime.js", reference: true }))) as ivm.Reference;
    for (const name of RUNTIME_ENTRY_POINTS) entries[name] = (await setUp(runtime.get(name, { reference: true }))) as ivm.Reference;
    runtime.release();
  } catch (error) {
    if (!isolate.isDisposed) isolate.dispose();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  live = { isolate, context, runtime: entries, inFlight: 0, waitingSince: 0, queued: [], settling: new Set(), broken, reject, limitMb: wholeMb, repl: new ReplState(), lost: undefined, onLost: callbacks.lost };
  return live;
}

/**
 * Gives up on an isolate: records why, tells the host (whose process may now hold a
 * thread it cannot stop) and rejects `live.broken`, so nothing waits on the isolate
 * any longer. The first reason stands.
 */
export function writeOff(live: Live, why: LostReason): void {
  if (live.lost) return;
  live.lost = why;
  live.onLost(why);
  live.reject(new Error(why === "stuck" ? "the isolate did not answer in time" : "catastrophic isolate error"));
}

/**
 * Calls `fn` after `ms`, and one event-loop turn later, unless cancelled by then: an
 * answer that was already waiting when the timer ran (a host busy for that long) is
 * delivered first.
 */
export function afterGrace(ms: number, fn: () => void): () => void {
  let cancelled = false;
  const timer = setTimeout(() => setImmediate(() => cancelled || fn()), ms);
  return () => {
    cancelled = true;
    clearTimeout(timer);
  };
}

/**
 * Waits for an operation on an isolate for at most `ms`; an isolate that has not
 * answered by then is written off as stuck. Rejects as soon as the isolate is
 * written off, for whatever reason.
 */
export async function answerWithin<T>(live: Live, work: Promise<T>, ms: number): Promise<T> {
  const cancel = afterGrace(ms, () => writeOff(live, "stuck"));
  try {
    return await Promise.race([work, live.broken]);
  } finally {
    cancel();
  }
}

/**
 * The answer of a call into the isolate, asked again while it fails and the isolate lives on:
 * isolated-vm fails a call with a rejection guest code left unhandled in a task it ran before
 * it (a FinalizationRegistry callback's; each callback runs in a task of its own), and that
 * failure clears it. Undefined once the isolate is gone, or when it still fails at `until`
 * (a `performance.now()` time; without one, a block's watchdog bounds the asking).
 */
export async function askAgainOnGuestError<T>(live: Live, ask: () => Promise<T>, until = Infinity): Promise<T | undefined> {
  for (;;) {
    try {
      return await ask();
    } catch {
      if (live.isolate.isDisposed || live.lost || performance.now() >= until) return undefined;
    }
  }
}

/** Releases an isolate's references and disposes it (a written-off isolate is only disposed). */
export function releaseLive(live: Live): void {
  live.queued.length = 0;
  if (live.isolate.isDisposed) return;
  if (!live.lost) {
    for (const reference of Object.values(live.runtime)) reference.release();
    live.context.release();
  }
  live.isolate.dispose();
}

/**
 * Defines a global through the runtime, so no guest setter runs; fails if guest code made the name read-only.
 * Like every set-up call it is bounded ({@link answerWithin}): {@link CHECK_WITHIN_MS}, plus {@link COPY_MS_PER_MB}
 * per MB of `bytes` (the value's budget in the isolate), for code a block left running (a FinalizationRegistry
 * callback) can keep the isolate from answering.
 */
export async function setGuestGlobal(live: Live, name: string, value: GuestValue, bytes = budgetOf(value)): Promise<void> {
  const transferable = value !== null && typeof value === "object" ? new ivm.ExternalCopy(value).copyInto({ release: true }) : value;
  const within = CHECK_WITHIN_MS + COPY_MS_PER_MB * Math.ceil(bytes / (1024 * 1024));
  const done = await answerWithin(live, live.runtime.setGlobal.apply(undefined, [name, transferable], { arguments: { copy: true } }), within);
  if (done !== true) {
    throw new Error(`could not set the sandbox global '${name}': guest code made it read-only. Reset the sandbox or use another name.`);
  }
}

/** A value's budget in bytes (see `persistentBytes`); 0 for one it cannot size (a cycle), which then gets the base time. */
function budgetOf(value: GuestValue): number {
  try {
    return persistentBytes(value);
  } catch {
    return 0;
  }
}

/** Defines a stub in one isolate (on creation, and again in every fresh isolate); bounded like {@link setGuestGlobal}. */
export async function applyStub(live: Live, name: string, message: string): Promise<void> {
  await answerWithin(live, live.runtime.stub.apply(undefined, [name, message], { arguments: { copy: true } }), CHECK_WITHIN_MS);
}

/** Exposes a host function in one isolate (on creation, and again in every fresh isolate); it returns a promise in the guest. Bounded like {@link setGuestGlobal}. */
export async function applyExpose(live: Live, name: string): Promise<void> {
  await answerWithin(live, live.runtime.expose.apply(undefined, [name], { arguments: { copy: true } }), CHECK_WITHIN_MS);
}
