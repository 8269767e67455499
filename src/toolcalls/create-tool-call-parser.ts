import type { ToolCallEvent, ToolCallParser, ToolCallParserOptions } from "./tool-call-event.ts";
import { codeSpan, fenceClose, fenceOpen, objectStart, partialMarker, reasoningTag, toolTag, trailingRun } from "./lookahead.ts";
import { scanBraces, type ObjectScan } from "./object-scan.ts";
import { readJsonCall, readTaggedCall, type ObjectEnd } from "./read-call.ts";

type Mode =
  | { kind: "text" }
  | ({ kind: "object" } & ObjectScan)
  | { kind: "tag"; start: number; name: string; bodyStart: number; searchFrom: number }
  | { kind: "reasoning"; start: number; name: string; searchFrom: number }
  | { kind: "tail" };

interface Fence {
  readonly char: string;
  readonly run: number;
  /** Calls count inside it (```json or an untagged fence for `json`; untagged or ```xml for `tagged`). */
  readonly calls: boolean;
}

const CALL_FENCES = { json: new Set(["", "json", "jsonc", "json5"]), tagged: new Set(["", "xml"]) };
const COMPACT_AT = 1;
/**
 * Characters the final pass may scan in candidates that started after an unclosed one
 * (each rescan runs to the end of the reply), per character of the reply, plus a floor:
 * past it, a brace is text. Without it a reply of nested unclosed objects costs a scan
 * per brace to the end, quadratic in its length.
 */
const FINAL_SCAN_FACTOR = 8;
const FINAL_SCAN_FLOOR = 1 << 20;
const NEWLINE = 10;

/**
 * A streaming parser for tool calls written in a model's text. `push` takes each delta
 * and returns the events it completes: text as soon as it cannot be part of a call, each
 * call as soon as it closes; only what could still start a call is held back. `end`
 * returns the rest. The events equal those of {@link parseToolCalls} on the whole text,
 * however the text was split.
 *
 * What counts as a call, in both protocols: only registered tool names; never inside a
 * fence of another language, an inline code span, or (without `keepReasoning`) a
 * `<think>`/`<thinking>`/`<reasoning>` block; never after text shaped like
 * `Tool Result (` (a result the model wrote itself: the rest of the reply is text).
 *
 * @example
 * const parser = createToolCallParser({ protocol: "tagged", tools: [{ name: "nav_search" }] });
 * parser.push('Let me look.\n<nav_se'); // [{ type: "text", text: "Let me look.\n" }]
 * parser.push('arch>{"query": "retry"}</nav_search>');
 * // [{ type: "tool_call", name: "nav_search", arguments: { query: "retry" }, raw: '<nav_search>{"query": "retry"}</nav_search>' }]
 * parser.end(); // []
 */
export function createToolCallParser(options: ToolCallParserOptions): ToolCallParser {
  return new StreamingParser(options);
}

class StreamingParser implements ToolCallParser {
  private buffer = "";
  /** Everything before `emitted` has been returned; everything before `cursor` has been decided. */
  private emitted = 0;
  private cursor = 0;
  private lineChecked = -1;
  private mode: Mode = { kind: "text" };
  private fence: Fence | undefined;
  private ended = false;
  /** Characters scanned in candidates after the reply ended (see FINAL_SCAN_FACTOR). */
  private finalScanned = 0;
  /** A lookahead that waited at `at` may resume its search at `from` (so a long line is not searched again on every push). */
  private resume = { key: "", from: 0 };
  private events: ToolCallEvent[] = [];
  private readonly tools: ReadonlySet<string>;
  private readonly longestName: number;
  private readonly protocol: "json" | "tagged";
  private readonly keepReasoning: boolean;
  private readonly trigger: RegExp;

  constructor({ protocol, tools, keepReasoning = false }: ToolCallParserOptions) {
    if (protocol !== "json" && protocol !== "tagged") throw new TypeError(`createToolCallParser: protocol must be "json" or "tagged", got ${JSON.stringify(protocol)}.`);
    this.protocol = protocol;
    this.tools = new Set(tools.map((tool) => tool.name));
    this.longestName = Math.max(0, ...[...this.tools].map((name) => name.length));
    this.keepReasoning = keepReasoning;
    const starts = `\\n\`${protocol === "json" ? "{" : ""}${protocol === "tagged" || !keepReasoning ? "<" : ""}`;
    this.trigger = new RegExp(`[${starts}]|tool result \\(`, "gi");
  }

  push(delta: string): ToolCallEvent[] {
    if (this.ended) throw new Error("ToolCallParser: push() after end().");
    if (typeof delta !== "string") throw new TypeError(`ToolCallParser.push: delta must be a string, got ${typeof delta}.`);
    this.buffer += delta;
    this.run(false);
    return this.take();
  }

  end(): ToolCallEvent[] {
    if (this.ended) return [];
    this.ended = true;
    this.run(true);
    this.emitText(this.buffer.length);
    return this.take();
  }

  private run(final: boolean): void {
    for (;;) {
      const kind = this.mode.kind;
      const progressed =
        kind === "object" ? this.scanObject(final)
        : kind === "tag" ? this.scanTag(final)
        : kind === "reasoning" ? this.scanReasoning(final)
        : kind === "tail" ? false
        : this.scanText(final);
      if (!progressed) break;
    }
    this.emitText(this.heldFrom());
    this.compact();
  }

  /** The first position that may still become part of a call. */
  private heldFrom(): number {
    const mode = this.mode;
    if (mode.kind === "tail") return this.buffer.length;
    if (mode.kind === "object" || mode.kind === "tag") return mode.start;
    if (mode.kind === "reasoning") return mode.searchFrom;
    return this.cursor;
  }

  /** Returns true when the mode changed (so the caller scans on in the new mode). */
  private scanText(final: boolean): boolean {
    const text = this.buffer;
    while (this.cursor < text.length) {
      const at = this.cursor;
      if (this.lineChecked !== at && (at === 0 || text.charCodeAt(at - 1) === NEWLINE)) {
        const line = this.lineStart(at, final);
        if (line === "wait") return false;
        this.lineChecked = at;
        if (line === "consumed") continue;
      }
      if (this.fence && !this.fence.calls) {
        const newline = text.indexOf("\n", at);
        this.cursor = newline === -1 ? text.length : newline + 1;
        continue;
      }
      this.trigger.lastIndex = at;
      const found = this.trigger.exec(text);
      if (!found) {
        this.cursor = final ? text.length : text.length - partialMarker(text.slice(at));
        return false;
      }
      this.cursor = found.index;
      const outcome = this.atTrigger(found[0], found.index, final);
      if (outcome === "wait") return false;
      if (outcome === "mode") return true;
    }
    return false;
  }

  private lineStart(at: number, final: boolean): "wait" | "consumed" | "checked" {
    const fence = this.fence;
    if (fence) {
      const close = fenceClose(this.buffer, at, final, fence.char, fence.run, this.resumeFrom(`line ${at}`, at));
      if (close === "wait") return this.wait(`line ${at}`, this.buffer.length);
      if (close === "no") return "checked";
      this.fence = undefined;
      this.cursor = at + close;
      return "consumed";
    }
    const open = fenceOpen(this.buffer, at, final, this.resumeFrom(`line ${at}`, at));
    if (open === "wait") return this.wait(`line ${at}`, this.buffer.length);
    if (open === "no") return "checked";
    this.fence = { char: open.char, run: open.run, calls: CALL_FENCES[this.protocol].has(open.language) };
    this.cursor = at + open.length;
    return "consumed";
  }

  /** Handles the trigger at `at`; moves the cursor past what it decided. */
  private atTrigger(found: string, at: number, final: boolean): "wait" | "mode" | "moved" {
    const text = this.buffer;
    const char = found[0];
    if (char === "\n") {
      this.cursor = at + 1;
      return "moved";
    }
    if (found.length > 1) {
      this.mode = { kind: "tail" };
      return "mode";
    }
    if (char === "`") {
      if (this.fence) return this.step(at);
      const span = codeSpan(text, at, final, this.resumeFrom(`span ${at}`, at));
      if (span === "wait") return this.wait(`span ${at}`, text.length - trailingRun(text));
      if (span === "no") return this.step(at);
      this.cursor = "end" in span ? span.end : at + span.literal;
      return "moved";
    }
    if (char === "{") {
      if (final && this.finalScanned > FINAL_SCAN_FACTOR * text.length + FINAL_SCAN_FLOOR) return this.step(at);
      const start = objectStart(text, at, final);
      if (start === "wait") return "wait";
      if (start === "no") return this.step(at);
      this.mode = { kind: "object", start: at, scanned: at, depth: 0, quote: 0, escape: false };
      return "mode";
    }
    const reasoning = this.keepReasoning ? "no" : reasoningTag(text, at, final);
    const tool = this.protocol === "tagged" ? toolTag(text, at, final, this.tools, this.longestName) : "no";
    if (reasoning === "wait" || tool === "wait") return "wait";
    if (reasoning !== "no") {
      this.cursor = at + reasoning.length;
      if (!reasoning.closing) this.mode = { kind: "reasoning", start: at, name: reasoning.name, searchFrom: this.cursor };
      return reasoning.closing ? "moved" : "mode";
    }
    if (tool !== "no") {
      this.mode = { kind: "tag", start: at, name: tool.name, bodyStart: at + tool.length, searchFrom: at + tool.length };
      return "mode";
    }
    return this.step(at);
  }

  private resumeFrom(key: string, at: number): number {
    return this.resume.key === key ? this.resume.from : at;
  }

  private wait(key: string, from: number): "wait" {
    this.resume = { key, from };
    return "wait";
  }

  private step(at: number): "moved" {
    this.cursor = at + 1;
    return "moved";
  }

  private scanObject(final: boolean): boolean {
    const mode = this.mode as Extract<Mode, { kind: "object" }>;
    const text = this.buffer;
    const fence = this.fence;
    const from = mode.scanned;
    const fenceClosesAfter = fence && ((newline: number) => {
      const close = fenceClose(text, newline + 1, final, fence.char, fence.run);
      return close === "wait" || close === "no" ? close : "yes";
    });
    const stop = scanBraces(text, mode, fenceClosesAfter);
    if (stop.kind === "fence") return this.finishObject(stop.end, "fence");
    if (final) this.finalScanned += (stop.kind === "closed" ? stop.end - 1 : mode.scanned) - from;
    if (stop.kind === "closed") return this.finishObject(stop.end, "closed");
    return final ? this.finishObject(text.length, "unclosed") : false;
  }

  private finishObject(end: number, how: ObjectEnd): true {
    const start = (this.mode as Extract<Mode, { kind: "object" }>).start;
    const event = readJsonCall(this.buffer.slice(start, end), this.tools, how);
    this.mode = { kind: "text" };
    if (event) this.emitCall(start, end, event);
    else this.cursor = how === "unclosed" ? start + 1 : end;
    return true;
  }

  private scanTag(final: boolean): boolean {
    const mode = this.mode as Extract<Mode, { kind: "tag" }>;
    const text = this.buffer;
    const closing = `</${mode.name}>`;
    const found = text.indexOf(closing, mode.searchFrom);
    if (found === -1 && !final) {
      mode.searchFrom = Math.max(mode.bodyStart, text.length - closing.length + 1);
      return false;
    }
    const end = found === -1 ? text.length : found + closing.length;
    const event = readTaggedCall(mode.name, text.slice(mode.bodyStart, found === -1 ? text.length : found), text.slice(mode.start, end), found !== -1);
    this.mode = { kind: "text" };
    this.emitCall(mode.start, end, event);
    return true;
  }

  private scanReasoning(final: boolean): boolean {
    const mode = this.mode as Extract<Mode, { kind: "reasoning" }>;
    const closing = new RegExp(`</${mode.name}\\s*>`, "gi");
    closing.lastIndex = mode.searchFrom;
    const found = closing.exec(this.buffer);
    if (found) {
      this.cursor = found.index + found[0].length;
      this.mode = { kind: "text" };
      return true;
    }
    if (final) {
      this.cursor = this.buffer.length;
      this.mode = { kind: "text" };
      return false;
    }
    const partial = this.buffer.lastIndexOf("<");
    mode.searchFrom = Math.max(mode.searchFrom, partial >= this.buffer.length - 24 ? partial : this.buffer.length);
    return false;
  }

  private emitCall(start: number, end: number, event: ToolCallEvent): void {
    this.emitText(start);
    this.events.push(event);
    this.emitted = end;
    this.cursor = end;
  }

  private emitText(upTo: number): void {
    if (upTo <= this.emitted) return;
    const text = this.buffer.slice(this.emitted, upTo);
    const last = this.events.at(-1);
    if (last?.type === "text") this.events[this.events.length - 1] = { type: "text", text: last.text + text };
    else this.events.push({ type: "text", text });
    this.emitted = upTo;
  }

  private take(): ToolCallEvent[] {
    const events = this.events;
    this.events = [];
    return events;
  }

  /** Drops returned text from the buffer (keeping one character, for the line-start check). */
  private compact(): void {
    const drop = this.emitted - 1;
    if (drop < COMPACT_AT) return;
    this.buffer = this.buffer.slice(drop);
    this.emitted -= drop;
    this.cursor -= drop;
    this.lineChecked -= drop;
    this.resume = { key: "", from: 0 };
    const mode = this.mode;
    if (mode.kind === "object") { mode.start -= drop; mode.scanned -= drop; }
    else if (mode.kind === "tag") { mode.start -= drop; mode.bodyStart -= drop; mode.searchFrom -= drop; }
    else if (mode.kind === "reasoning") { mode.start -= drop; mode.searchFrom -= drop; }
  }
}
