import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { SessionEvent } from "../core/events.ts";

/**
 * Writes events to a JSONL file as they happen (one JSON object per line), so a
 * trace survives a crash up to its last event. The file is truncated at start.
 */
export class TraceWriter {
  readonly path: string;

  constructor(path: string) {
    this.path = path;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, "");
  }

  /** Appends one event. */
  write(event: SessionEvent): void {
    appendFileSync(this.path, `${JSON.stringify(event)}\n`);
  }
}
