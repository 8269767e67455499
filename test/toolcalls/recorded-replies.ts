import { readFileSync } from "node:fs";

/** A model output recorded in another project's tool-parser tests (see test/fixtures/tool-replies/recorded.json). */
export interface RecordedReply {
  readonly source: string;
  readonly label: string;
  readonly text: string;
  readonly calls: readonly { readonly name: string; readonly arguments: Record<string, unknown> }[];
}

export const RECORDED: readonly RecordedReply[] = JSON.parse(readFileSync(new URL("../fixtures/tool-replies/recorded.json", import.meta.url), "utf8")).replies;

/** Every tool name the recorded replies call. */
export const RECORDED_TOOLS = [...new Set(RECORDED.flatMap((reply) => reply.calls.map((call) => call.name)))].map((name) => ({ name }));

/** The reply in rlmkit's `json` shape: each object's leading `"name"` key renamed `"tool"`; everything else as recorded. */
export function asJsonProtocol(text: string): string {
  return text.replace(/\{(\s*)"name"(\s*):/g, '{$1"tool"$2:');
}

/** The reply in rlmkit's `tagged` shape: each `<tool_call>{"name": N, "arguments": A}</tool_call>` becomes `<N>A</N>`; `undefined` when a call is left in another shape. */
export function asTaggedProtocol(reply: RecordedReply): string | undefined {
  let converted = 0;
  const text = reply.text.replace(/<tool_call>([\s\S]*?)<\/tool_call>/g, (whole, inner: string) => {
    let call: unknown;
    try {
      call = JSON.parse(inner);
    } catch {
      return whole;
    }
    if (typeof call !== "object" || call === null || Array.isArray(call)) return whole;
    const { name, arguments: args } = call as { name: string; arguments: unknown };
    converted++;
    return `<${name}>${typeof args === "string" ? args : JSON.stringify(args)}</${name}>`;
  });
  return converted === reply.calls.length && converted > 0 ? text : undefined;
}
