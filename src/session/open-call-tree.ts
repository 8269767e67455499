import type { SessionEvent } from "../core/events.ts";
import { createCallTree, type CallTree, type CallTreeOptions } from "../subcalls/call-tree.ts";
import { TraceWriter } from "./trace-writer.ts";

/**
 * The call tree of a root session: budgets, limiter, cache, and the sink every
 * session of the tree sends its events to, which appends each to the JSONL trace
 * (`tracePath`) and hands it to `onEvent`. An `onEvent` that throws is reported once
 * in the trace and otherwise ignored.
 */
export function openCallTree({ tracePath, onEvent, ...options }: Omit<CallTreeOptions, "sink"> & { readonly tracePath: string | undefined; readonly onEvent: ((event: SessionEvent) => void) | undefined }): CallTree {
  const trace = tracePath ? new TraceWriter(tracePath) : undefined;
  let listenerFailed = false;
  const sink = (full: SessionEvent): void => {
    trace?.write(full);
    if (!onEvent) return;
    try {
      onEvent(full);
    } catch (error) {
      if (!listenerFailed) {
        listenerFailed = true;
        trace?.write({ ...full, type: "error", message: `onEvent threw: ${(error as Error)?.message ?? error}` } as SessionEvent);
      }
    }
  };
  return createCallTree({ ...options, sink });
}
