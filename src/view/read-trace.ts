import { readFileSync } from "node:fs";
import type { SessionEvent } from "../core/events.ts";

/** A trace as read from JSONL: the events in file order, plus the lines that could not be used. */
export interface ParsedTrace {
  readonly events: readonly SessionEvent[];
  /** One entry per skipped line, e.g. `line 7: not JSON`. */
  readonly problems: readonly string[];
}

/**
 * Parses a JSONL trace (one event per line). Blank lines are ignored; a line that
 * is not a JSON object with a string `type` is skipped and reported, so a trace cut
 * short by a crash still reads up to its last whole event.
 */
export function parseTrace(text: string): ParsedTrace {
  const events: SessionEvent[] = [];
  const problems: string[] = [];
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      problems.push(`line ${index + 1}: not JSON`);
      return;
    }
    if (typeof value !== "object" || value === null || typeof (value as { type?: unknown }).type !== "string") {
      problems.push(`line ${index + 1}: not an event (no "type")`);
      return;
    }
    events.push(value as SessionEvent);
  });
  return { events, problems };
}

/** Reads and parses a JSONL trace file; throws a one-line error when it is missing or holds no events. */
export function readTrace(path: string): ParsedTrace {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(code === "ENOENT" ? `trace file not found: ${path}` : `cannot read trace file ${path} (${code ?? (error as Error).message})`, { cause: error });
  }
  const parsed = parseTrace(text);
  if (parsed.events.length === 0) throw new Error(`${path} holds no trace events${parsed.problems.length ? ` (${parsed.problems[0]})` : ""}; expected a JSONL file written by --trace or runSession({ tracePath }).`);
  return parsed;
}
