import type ivm from "isolated-vm";
import { answerWithin, askAgainOnGuestError, CHECK_WITHIN_MS, type Live } from "./live-isolate.ts";

const MB = 1024 * 1024;

/**
 * The isolate's heap statistics as a block's run ended, asked for right after the run was
 * started. The isolate runs the host's requests in order, so it answers them in the tasks that
 * follow the run's, before any task V8 posted while the block ran (a scavenge of what it made,
 * started when the young generation filled). Undefined unless the guest runtime, asked in
 * between, says the block was quiet: no run is under way and no guest code can run before the
 * next block (no host call pending, no FinalizationRegistry callback possible; see the runtime's
 * `quiet`); undefined too when the isolate went away.
 */
export function heapAsTheRunEnds(live: Live): Promise<ivm.HeapStatistics | undefined> {
  const quiet = live.runtime.quiet.apply(undefined, [], { result: { copy: true } });
  const stats = live.isolate.getHeapStatistics();
  return Promise.all([quiet, stats]).then(
    ([isQuiet, heap]) => (isQuiet === true ? heap : undefined),
    () => undefined,
  );
}

/**
 * Whether what a block kept is over the memory limit (`over`), its isolate stopped answering
 * while the host looked (`stuck`), or reads of its heap kept failing with guest errors for
 * {@link CHECK_WITHIN_MS} (`unchecked`). What it kept can be over the limit without V8 noticing yet,
 * which would dispose the isolate later, between blocks. The heap as a quiet block's run ended
 * (`heapAtRunEnd`, see {@link heapAsTheRunEnds}) is what the block kept plus its garbage: when
 * that is within the limits, what it kept is too, and the caller gets the result while the
 * isolate runs the collection V8 scheduled during the block. Otherwise the heap is read again,
 * after that collection.
 */
export async function keptOverLimit(live: Live, heapAtRunEnd: Promise<ivm.HeapStatistics | undefined>): Promise<"over" | "stuck" | "unchecked" | undefined> {
  const atRunEnd = await answerWithin(live, heapAtRunEnd, CHECK_WITHIN_MS).catch(() => undefined);
  const read = () => answerWithin(live, live.isolate.getHeapStatistics(), CHECK_WITHIN_MS);
  const kept = atRunEnd && !overLimit(atRunEnd, live) ? atRunEnd : await askAgainOnGuestError(live, read, performance.now() + CHECK_WITHIN_MS);
  if (kept && overHeapAndBuffers(kept, live)) {
    // isolated-vm checks heap plus ArrayBuffers against the limit, after a full collection,
    // whenever the host compiles or evaluates something in it. Let it decide now.
    await answerWithin(live, live.context.eval("0"), CHECK_WITHIN_MS).catch(() => undefined);
  }
  if (live.lost === "stuck") return "stuck";
  if (live.isolate.isDisposed || live.lost || (kept && overHeap(kept))) return "over";
  return kept ? undefined : "unchecked";
}

// The used heap over V8's own heap limit.
function overHeap(stats: ivm.HeapStatistics): boolean {
  return stats.used_heap_size > stats.heap_size_limit;
}

// The heap and ArrayBuffers together over the memory limit, as isolated-vm counts them.
function overHeapAndBuffers(stats: ivm.HeapStatistics, live: Live): boolean {
  return stats.externally_allocated_size > 0 && stats.used_heap_size + stats.externally_allocated_size > live.limitMb * MB;
}

// Over either limit: a heap read as the run ended is then read again, after the collection.
function overLimit(stats: ivm.HeapStatistics, live: Live): boolean {
  return overHeap(stats) || overHeapAndBuffers(stats, live);
}
